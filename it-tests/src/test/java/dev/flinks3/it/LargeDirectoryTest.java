package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.RequestKind;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.flink.core.fs.FileStatus;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Directories of more than one ListObjectsV2 page (1,000 keys): {@code listStatus} pages through all
 * of them, and {@code delete(dir, true)} removes them with batch DeleteObjects (up to 1,000 keys per
 * request), not one DeleteObject per key (issue 2, namespace).
 */
class LargeDirectoryTest extends AbstractS3ProxyFileSystemTest {

    private static final int FILES = 1_050;

    @Test
    void listStatusReturnsEveryEntryAcrossPages() throws Exception {
        List<String> names = createObjects();
        s3.putObject(b -> b.bucket(target.bucket()).key(key(dir) + "/sub/nested"), RequestBody.fromString("n"));
        long listsBefore = server.requestLog().count(RequestKind.LIST_OBJECTS_V2);

        FileStatus[] listing = fs.listStatus(dir);

        assertThat(Arrays.stream(listing)
                        .filter(s -> !s.isDir())
                        .map(s -> s.getPath().getName()))
                .containsExactlyInAnyOrderElementsOf(names);
        assertThat(Arrays.stream(listing)
                        .filter(FileStatus::isDir)
                        .map(s -> s.getPath().getName()))
                .containsExactly("sub");
        assertThat(server.requestLog().count(RequestKind.LIST_OBJECTS_V2) - listsBefore)
                .as("ListObjectsV2 pages")
                .isGreaterThanOrEqualTo(2);
    }

    @Test
    void recursiveDeleteRemovesEveryKeyInBatches() throws Exception {
        createObjects();
        long singleDeletesBefore = server.requestLog().count(RequestKind.DELETE_OBJECT);
        long batchDeletesBefore = server.requestLog().count(RequestKind.DELETE_OBJECTS);

        assertThat(fs.delete(dir, true)).isTrue();

        assertThat(s3.listObjectsV2(b -> b.bucket(target.bucket()).prefix(key(dir)))
                        .contents())
                .isEmpty();
        assertThat(fs.exists(dir)).isFalse();
        assertThat(server.requestLog().count(RequestKind.DELETE_OBJECTS) - batchDeletesBefore)
                .as("DeleteObjects requests")
                .isBetween(2L, 3L);
        assertThat(server.requestLog().count(RequestKind.DELETE_OBJECT) - singleDeletesBefore)
                .as("single DeleteObject requests")
                .isLessThanOrEqualTo(1);
    }

    /**
     * Stores {@value #FILES} small objects under the test directory straight into the server's
     * backend: preparing them over HTTP would cost more than the calls under test.
     */
    private List<String> createObjects() {
        List<String> names = IntStream.range(0, FILES)
                .mapToObj(i -> String.format("part-%05d", i))
                .toList();
        for (String name : names) {
            server.putObjectDirectly(target.bucket(), key(dir) + "/" + name, name.getBytes(StandardCharsets.UTF_8));
        }
        return names;
    }
}
