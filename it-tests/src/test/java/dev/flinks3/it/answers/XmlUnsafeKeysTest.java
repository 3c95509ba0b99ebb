package dev.flinks3.it.answers;

import static dev.flinks3.it.answers.RewrittenAnswersServer.read;
import static dev.flinks3.it.answers.RewrittenAnswersServer.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 45, keys that XML 1.0 cannot carry (a control character, U+FFFE): S3 takes them in a URL, but a
 * listing's XML answer cannot hold them and neither can a DeleteObjects request's XML body. Listings ask
 * for {@code encoding-type=url} and the keys come back decoded; a recursive delete sends such keys as
 * single DeleteObject requests and the others in one batch. Against S3Proxy, which encodes listed keys
 * when asked to.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class XmlUnsafeKeysTest {

    private static final List<String> UNSAFE_NAMES = List.of("bell\u0007key", "non-character\uFFFEkey", "cr\rkey");
    private static final List<String> SAFE_NAMES = List.of("plain", "with space+plus%percent");

    private RewrittenAnswersServer server;
    private FileSystemFactory factory;
    private FileSystem fs;
    private final String base = "XmlUnsafeKeysTest/" + UUID.randomUUID();

    @BeforeAll
    void start() throws Exception {
        server = new RewrittenAnswersServer(true);
        factory = server.factory(Map.of("s3.retry.max-num-retries", "1"));
        fs = RewrittenAnswersServer.fileSystem(factory);
    }

    @AfterAll
    void stop() throws Exception {
        RewrittenAnswersServer.close(factory);
        server.close();
    }

    @Test
    void keysXmlCannotCarryAreListedReadAndDeleted() throws Exception {
        Path dir = path("dir");
        for (String name : UNSAFE_NAMES) {
            write(fs, new Path(dir, name), bytes(name), WriteMode.NO_OVERWRITE);
        }
        for (String name : SAFE_NAMES) {
            write(fs, new Path(dir, name), bytes(name), WriteMode.NO_OVERWRITE);
        }

        List<String> encodings = new CopyOnWriteArrayList<>();
        // Never takes a request: it only notes what each listing asked for.
        server.answers()
                .rewrite(
                        RequestKind.LIST_OBJECTS_V2,
                        request -> !encodings.add(String.valueOf(request.getParameter("encoding-type"))),
                        1,
                        (request, served) -> served);

        FileStatus[] listed = fs.listStatus(dir);

        assertThat(Arrays.stream(listed).map(status -> status.getPath().getName()))
                .containsExactlyInAnyOrderElementsOf(concat(UNSAFE_NAMES, SAFE_NAMES));
        assertThat(encodings).as("encoding-type of the listings").isNotEmpty().containsOnly("url");
        for (String name : UNSAFE_NAMES) {
            assertThat(read(fs, new Path(dir, name))).isEqualTo(bytes(name));
        }

        server.server().requestLog().clear();
        assertThat(fs.delete(dir, true)).isTrue();

        assertThat(server.s3()
                        .listObjectsV2(b -> b.bucket(RewrittenAnswersServer.BUCKET)
                                .prefix(base + "/")
                                .encodingType("url"))
                        .contents())
                .as("objects left")
                .isEmpty();
        assertThat(server.server().requestLog().entries(RequestKind.DELETE_OBJECT).stream()
                        .map(RequestRecord::key)
                        .collect(Collectors.toList()))
                .as("keys deleted one by one")
                .containsExactlyInAnyOrderElementsOf(
                        UNSAFE_NAMES.stream().map(name -> base + "/dir/" + name).collect(Collectors.toList()));
        assertThat(server.count(RequestKind.DELETE_OBJECTS))
                .as("batches for the other keys")
                .isEqualTo(1);
    }

    private Path path(String relative) {
        return new Path("s3://" + RewrittenAnswersServer.BUCKET + "/" + base + "/" + relative);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).collect(Collectors.toList());
    }
}
