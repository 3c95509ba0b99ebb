package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * A failed upload marks the stream failed; close() aborts the multipart upload and throws the first
 * cause; nothing is visible at the key, no upload is left behind, a second close() creates nothing
 * (issue 2, write path). Failures are real HTTP errors: the server answers with 403 AccessDenied,
 * which the SDK does not retry.
 */
class UploadFailureTest extends AbstractS3ProxyFileSystemTest {

    @Override
    protected Map<String, String> options() {
        return Map.of("s3.upload.min.part.size", "5mb");
    }

    /**
     * The plugin probes once per process, at its first conditional writes, whether the server honours {@code
     * If-None-Match} on PutObject and CompleteMultipartUpload; a probe would take the fault a test arms for the
     * write. So one small and one multipart write run first, whatever test classes ran before in this JVM.
     */
    @BeforeEach
    void probeConditionalWritesFirst() throws IOException {
        for (int size : new int[] {1000, 6 * MIB}) {
            Path warmUp = new Path(dir, "warm-up-" + size);
            write(warmUp, randomBytes(size, 9));
            fs.delete(warmUp, false);
        }
    }

    @AfterEach
    void clearFaults() {
        server.clearFaults();
    }

    @Test
    void failedPartAbortsTheUploadAndLeavesNoObject() throws Exception {
        Path path = new Path(dir, "failed-part");
        server.failNext(RequestKind.UPLOAD_PART, 1, 403, "AccessDenied");

        assertWriteFailsAndLeavesNothing(path, randomBytes(12 * MIB, 1));

        assertThat(server.requestLog().entries(RequestKind.ABORT_MULTIPART_UPLOAD))
                .anySatisfy(abort -> assertThat(abort.key()).isEqualTo(key(path)));
    }

    @Test
    void failedCompleteAbortsTheUploadAndLeavesNoObject() throws Exception {
        server.failNext(RequestKind.COMPLETE_MULTIPART_UPLOAD, 1, 403, "AccessDenied");

        assertWriteFailsAndLeavesNothing(new Path(dir, "failed-complete"), randomBytes(6 * MIB, 2));
    }

    @Test
    void failedSinglePutLeavesNoObject() throws Exception {
        server.failNext(RequestKind.PUT_OBJECT, 1, 403, "AccessDenied");

        assertWriteFailsAndLeavesNothing(new Path(dir, "failed-put"), randomBytes(1000, 3));
    }

    /**
     * Flink cancels a checkpoint by interrupting the thread that writes it, and closes the stream on that
     * thread: the close gives up (InterruptedIOException) and its AbortMultipartUpload still reaches the
     * server. Before the fix the SDK refused to send the abort from an interrupted thread, and the 2-hour soak
     * of 2026-12-07 found one upload per TaskManager stop left open at the server by the surviving TaskManager.
     */
    @Test
    void aStreamClosedOnAnInterruptedThreadAbortsItsUpload() throws Exception {
        Path path = new Path(dir, "cancelled-checkpoint");
        FSDataOutputStream out = fs.create(path, WriteMode.NO_OVERWRITE);
        out.write(randomBytes(12 * MIB, 4));
        await().atMost(Duration.ofSeconds(20))
                .alias("the upload is open at the server")
                .until(() -> !openUploads(path).isEmpty());

        Thread.currentThread().interrupt();
        Throwable failure;
        try {
            failure = catchThrowable(out::close);
        } finally {
            Thread.interrupted();
        }

        assertThat(failure).isInstanceOf(InterruptedIOException.class);
        // The interrupted close does not wait for the abort; the abort goes on in the background.
        await().atMost(Duration.ofSeconds(20))
                .alias("the upload is aborted at the server")
                .until(() -> s3.listMultipartUploads(
                                b -> b.bucket(target.bucket()).prefix(key(path)))
                        .uploads()
                        .isEmpty());
        assertNothingLeftAt(path);
    }

    private List<MultipartUpload> openUploads(Path path) {
        return s3.listMultipartUploads(b -> b.bucket(target.bucket()).prefix(key(path)))
                .uploads();
    }

    private void assertWriteFailsAndLeavesNothing(Path path, byte[] data) throws IOException {
        FSDataOutputStream out = fs.create(path, WriteMode.NO_OVERWRITE);

        Throwable failure = catchThrowable(() -> {
            out.write(data);
            out.close();
        });
        assertThat(failure).as("write or close of %s", path).isInstanceOf(IOException.class);
        long requestsAfterFailure = server.requestLog().entries().size();
        catchThrowable(out::close);

        assertThat(server.requestLog().entries().stream()
                        .skip(requestsAfterFailure)
                        .map(r -> r.kind()))
                .as("requests made by a second close()")
                .doesNotContain(
                        RequestKind.PUT_OBJECT,
                        RequestKind.CREATE_MULTIPART_UPLOAD,
                        RequestKind.UPLOAD_PART,
                        RequestKind.COMPLETE_MULTIPART_UPLOAD);
        assertNothingLeftAt(path);
    }
}
