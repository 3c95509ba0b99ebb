package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flinks3.it.faults.Fault;
import dev.flinks3.it.faults.FaultInjectingProxy;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code s3.close.timeout} bounds how long closing the filesystem's S3 clients (configuring its factory
 * again) waits for parts still uploading: the {@link FaultInjectingProxy} holds back the answer to every
 * UploadPart for {@value #PART_HELD_BACK_SECONDS} s while a stream has one part uploading. With 1 s,
 * closing returns well before the answer (after the 1 s and the client owner's wait of up to 5 s for its
 * scheduler), the stream's upload fails and no object appears; with the default (60 s), closing waits
 * until the part has its answer. The stream whose part was still uploading leaves nothing at the server:
 * closing cancels the part and aborts the multipart upload before it closes the clients.
 */
class CloseTimeoutTest extends AbstractS3ProxyFileSystemTest {

    private static final int PART_HELD_BACK_SECONDS = 10;
    /**
     * Above 1 s of close timeout plus the up to 5 s the client owner then waits for its scheduler, which
     * still holds the attempt timeouts of the requests in flight; below the held-back answer.
     */
    private static final Duration BETWEEN = Duration.ofSeconds(8);

    @Test
    @Timeout(60)
    void closingWaitsAtMostTheCloseTimeoutAndTheUploadFails() throws Exception {
        Path file = new Path(dir, "uploading");
        try (FaultInjectingProxy proxy = new FaultInjectingProxy(target.endpoint())) {
            Closing closing = closeWhileAPartUploads(proxy, file, Map.of("s3.close.timeout", "1 s"));

            assertThat(closing.took).as("closing with a 1 s close timeout").isLessThan(BETWEEN);
            assertThatThrownBy(closing.stream::close).isInstanceOf(IOException.class);
        }
        assertThat(s3.listObjectsV2(b -> b.bucket(target.bucket()).prefix(key(dir) + "/"))
                        .contents())
                .as("objects under %s", dir)
                .isEmpty();
        assertThat(s3.listMultipartUploads(b -> b.bucket(target.bucket()).prefix(key(dir) + "/"))
                        .uploads())
                .as("multipart uploads under %s", dir)
                .isEmpty();
    }

    @Test
    @Timeout(60)
    void closingWithTheDefaultWaitsForTheRunningPart() throws Exception {
        Path file = new Path(dir, "uploading");
        try (FaultInjectingProxy proxy = new FaultInjectingProxy(target.endpoint())) {
            Closing closing = closeWhileAPartUploads(proxy, file, Map.of());

            assertThat(closing.took)
                    .as("closing with the default close timeout")
                    .isGreaterThan(BETWEEN);
            // The part has its answer, but the clients are closed: the upload cannot complete.
            assertThatThrownBy(closing.stream::close).isInstanceOf(IOException.class);
        }
    }

    /**
     * Starts a stream of {@code options} through {@code proxy} that has one part uploading (its answer held
     * back), then closes the filesystem's clients: how long that took, and the stream, still open.
     */
    private Closing closeWhileAPartUploads(FaultInjectingProxy proxy, Path file, Map<String, String> options)
            throws Exception {
        proxy.failAlways(RequestKind.UPLOAD_PART, Fault.delayFirstByte(Duration.ofSeconds(PART_HELD_BACK_SECONDS)));
        Map<String, String> withParts = new HashMap<>(options);
        withParts.put("s3.upload.min.part.size", "5 mb");
        FileSystemFactory factory =
                FlinkS3FileSystems.factory("s3", target.via(proxy.endpoint()).flinkConfiguration(withParts));
        FSDataOutputStream stream = factory.create(file.toUri()).create(file, WriteMode.NO_OVERWRITE);
        stream.write(randomBytes(5 * MIB + 1, 7));
        await().atMost(Duration.ofSeconds(20)).until(() -> proxy.count(RequestKind.UPLOAD_PART) == 1);
        long start = System.nanoTime();
        FlinkS3FileSystems.closeClients(factory);
        return new Closing(Duration.ofNanos(System.nanoTime() - start), stream);
    }

    private record Closing(Duration took, FSDataOutputStream stream) {}
}
