package dev.flinks3.it.answers;

import static dev.flinks3.it.answers.RewrittenAnswersServer.read;
import static dev.flinks3.it.answers.RewrittenAnswersServer.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.RequestKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 23, a server that accepts {@code If-None-Match: *} but does not enforce it (MinIO releases of
 * 2022-2024 echo CRC32C yet ignore it; SeaweedFS): S3Proxy, which checks the checksums and echoes them,
 * gets the conditional PutObject and CompleteMultipartUpload without the header. {@code NO_OVERWRITE}
 * must still never overwrite: the probes (of PutObject and of CompleteMultipartUpload, whatever the
 * checksum echo says) find the condition ignored and the HEAD check takes over.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IgnoredIfNoneMatchTest {

    private RewrittenAnswersServer server;
    private FileSystemFactory factory;
    private FileSystem fs;
    private final String base = "IgnoredIfNoneMatchTest/" + UUID.randomUUID();

    @BeforeEach
    void start() throws Exception {
        server = new RewrittenAnswersServer(false);
        factory = server.factory(Map.of("s3.upload.min.part.size", "5mb"));
        fs = RewrittenAnswersServer.fileSystem(factory);
    }

    @AfterEach
    void stop() throws Exception {
        RewrittenAnswersServer.close(factory);
        server.close();
    }

    private Path path(String relative) {
        return new Path("s3://" + RewrittenAnswersServer.BUCKET + "/" + base + "/" + relative);
    }

    private void ignoreIfNoneMatch(RequestKind kind) {
        server.answers().hideHeader(kind, "If-None-Match");
    }

    @Test
    void aOnePartFileIsNotOverwrittenWhereThePutIgnoresTheCondition() throws Exception {
        AnswerRewriteFilter.Rule ignored = server.answers().hideHeader(RequestKind.PUT_OBJECT, "If-None-Match");
        ignoreIfNoneMatch(RequestKind.COMPLETE_MULTIPART_UPLOAD);
        byte[] first = "first".getBytes(StandardCharsets.UTF_8);
        write(fs, path("file"), first, WriteMode.OVERWRITE);

        Throwable failure = catchThrowable(
                () -> write(fs, path("file"), "second".getBytes(StandardCharsets.UTF_8), WriteMode.NO_OVERWRITE));

        assertThat(failure).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(read(fs, path("file"))).isEqualTo(first);
        assertThat(ignored.applied())
                .as("conditional PutObjects sent without the header")
                .isPositive();
    }

    @Test
    void aMultipartFileIsNotOverwrittenWhereTheCompletionIgnoresTheCondition() throws Exception {
        ignoreIfNoneMatch(RequestKind.PUT_OBJECT);
        AnswerRewriteFilter.Rule ignored =
                server.answers().hideHeader(RequestKind.COMPLETE_MULTIPART_UPLOAD, "If-None-Match");
        byte[] first = new byte[7 * 1024 * 1024];
        new Random(1).nextBytes(first);
        write(fs, path("big"), first, WriteMode.OVERWRITE);
        byte[] second = new byte[7 * 1024 * 1024];
        new Random(2).nextBytes(second);

        Throwable failure = catchThrowable(() -> write(fs, path("big"), second, WriteMode.NO_OVERWRITE));

        assertThat(failure).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(read(fs, path("big"))).isEqualTo(first);
        assertThat(ignored.applied())
                .as("conditional completions sent without the header")
                .isPositive();
    }

    @Test
    void aNewFileIsStillWrittenWithNoOverwrite() throws Exception {
        ignoreIfNoneMatch(RequestKind.PUT_OBJECT);
        ignoreIfNoneMatch(RequestKind.COMPLETE_MULTIPART_UPLOAD);
        byte[] data = "new".getBytes(StandardCharsets.UTF_8);

        write(fs, path("new"), data, WriteMode.NO_OVERWRITE);

        assertThat(read(fs, path("new"))).isEqualTo(data);
        assertThat(server.s3()
                        .listObjectsV2(
                                b -> b.bucket(RewrittenAnswersServer.BUCKET).prefix(base + "/"))
                        .contents())
                .extracting(o -> o.key())
                .as("objects left besides the file (probes are removed)")
                .containsExactly(base + "/new");
    }
}
