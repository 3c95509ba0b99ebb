package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Checkpoint streams upload full parts while the caller keeps writing (issue 2, write path), and a
 * stream closed before its first part fills is sent as one PutObject.
 */
class ParallelUploadTest extends AbstractS3ProxyFileSystemTest {

    private static final int PART_SIZE = 5 * MIB;

    @Override
    protected Map<String, String> options() {
        return Map.of("s3.upload.min.part.size", "5mb", "s3.upload.max.concurrent.uploads", "4");
    }

    @Test
    void firstPartIsUploadedBeforeCloseAndTheObjectIsComplete() throws Exception {
        Path path = new Path(dir, "checkpoint-state");
        byte[] data = randomBytes(3 * PART_SIZE + 123, 7);

        FSDataOutputStream out = fs.create(path, WriteMode.NO_OVERWRITE);
        out.write(data);
        // An upload that only starts at close() never gets here.
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !requests(path, RequestKind.UPLOAD_PART).isEmpty());
        long closeNanos = System.nanoTime();
        out.close();

        List<RequestRecord> parts = requests(path, RequestKind.UPLOAD_PART);
        assertThat(parts.get(0).startNanos()).isLessThan(closeNanos);
        assertThat(parts).hasSizeGreaterThanOrEqualTo(3);
        assertThat(requests(path, RequestKind.CREATE_MULTIPART_UPLOAD)).hasSize(1);
        assertThat(requests(path, RequestKind.COMPLETE_MULTIPART_UPLOAD)).hasSize(1);
        assertThat(requests(path, RequestKind.PUT_OBJECT)).isEmpty();
        assertThat(objectBytes(path)).isEqualTo(data);
        assertThat(fs.getFileStatus(path).getLen()).isEqualTo(data.length);
    }

    @Test
    void smallFileIsOnePutObject() throws Exception {
        Path path = new Path(dir, "small");
        byte[] data = randomBytes(1000, 8);

        write(path, data);

        assertThat(server.requestLog().entries().stream()
                        .filter(r -> r.key().equals(key(path)))
                        .map(RequestRecord::kind))
                .as("requests naming the small file's key")
                .containsExactly(RequestKind.PUT_OBJECT);
        assertThat(objectBytes(path)).isEqualTo(data);
    }

    private List<RequestRecord> requests(Path path, RequestKind kind) {
        return server.requestLog().entries(kind).stream()
                .filter(r -> r.key().equals(key(path)))
                .toList();
    }
}
