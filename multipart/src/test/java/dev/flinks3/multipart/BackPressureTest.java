package dev.flinks3.multipart;

import static dev.flinks3.multipart.TestData.MIB;
import static dev.flinks3.multipart.TestData.PART;
import static dev.flinks3.multipart.TestData.crc;
import static dev.flinks3.multipart.TestData.random;
import static dev.flinks3.multipart.TestData.writeInSlices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.fake.Gate;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The two bounds on a writer: parts in flight per stream, and buffered bytes per process. */
class BackPressureTest {

    private final ExecutorService s3Threads = Executors.newFixedThreadPool(4);
    private final InMemoryObjectClient client = new InMemoryObjectClient(s3Threads);
    private final Gate parts = client.gate(Operation.UPLOAD_PART);

    @AfterEach
    void stopThreads() {
        parts.open();
        s3Threads.shutdownNow();
    }

    @Test
    void writerBlocksWhenItsPartsInFlightReachTheLimit() throws Throwable {
        UploadEngine engine =
                new UploadEngine(client, TestData.settings(2, 256L * MIB).build());
        S3Location target = S3Location.of("s3", "bucket", "big");
        byte[] data = random(6 * PART + 1, 21);
        parts.close();

        WriterThread writing = WriterThread.start("writer", () -> write(engine, target, data));

        await().atMost(Duration.ofSeconds(10)).until(() -> parts.held() == 2 && writing.isWaiting());
        assertThat(client.calls(Operation.UPLOAD_PART)).isEqualTo(2);
        assertThat(engine.metrics().partsInFlight()).isEqualTo(2);

        parts.open();
        writing.join();
        assertThat(client.maxInFlight(Operation.UPLOAD_PART)).isEqualTo(2);
        assertThat(crc(client.bytesOf(target))).isEqualTo(crc(data));
        assertThat(engine.budget().heldBytes()).isZero();
        assertThat(engine.metrics().uploadsStarted()).isEqualTo(1);
        // The writer waited for a part permit only; the process budget never held it back.
        assertThat(engine.metrics().backPressureNanos()).isPositive();
        assertThat(engine.budget().blockedNanos()).isZero();
    }

    @Test
    void processBudgetBoundsBufferedBytesAcrossStreams() throws Throwable {
        // Three parts as the budget charges them: their heap footprint (whole G1 regions).
        long charge = HeapFootprint.ofThisJvm().of(PART);
        long limit = 3L * charge;
        UploadEngine engine =
                new UploadEngine(client, TestData.settings(4, limit).build());
        byte[] first = random(4 * PART + 3, 22);
        byte[] second = random(4 * PART + 5, 23);
        parts.close();

        S3Location targetA = S3Location.of("s3", "bucket", "a");
        S3Location targetB = S3Location.of("s3", "bucket", "b");
        WriterThread a = WriterThread.start("writer-a", () -> write(engine, targetA, first));
        WriterThread b = WriterThread.start("writer-b", () -> write(engine, targetB, second));

        // Each stream may have 4 parts in flight, but 3 parts of budget stop both writers first.
        await().atMost(Duration.ofSeconds(10)).until(() -> a.isWaiting() && b.isWaiting() && parts.held() >= 1);
        assertThat(parts.held()).isLessThanOrEqualTo((int) (limit / charge));
        assertThat(engine.metrics().bytesBuffered()).isLessThanOrEqualTo(limit);

        parts.open();
        a.join();
        b.join();
        assertThat(engine.budget().blockedNanos())
                .as("writers waited for buffer bytes")
                .isPositive();
        assertThat(engine.metrics().backPressureNanos())
                .isGreaterThanOrEqualTo(engine.budget().blockedNanos());
        assertThat(engine.metrics().peakBytesBuffered()).isPositive().isLessThanOrEqualTo(limit);
        assertThat(engine.metrics().bufferLimitBytes()).isEqualTo(limit);
        assertThat(engine.budget().peakHeldBytes()).isLessThanOrEqualTo(limit);
        assertThat(crc(client.bytesOf(targetA))).isEqualTo(crc(first));
        assertThat(crc(client.bytesOf(targetB))).isEqualTo(crc(second));
        assertThat(engine.budget().heldBytes()).isZero();
    }

    @Test
    void processBudgetHoldsWithThirtyTwoConcurrentStreams() throws Throwable {
        int streams = 32;
        // Room for every stream's first part being filled, and 8 more parts: far below what 32 streams
        // with 4 parts in flight each would buffer (3 parts of each stream at once here).
        long charge = HeapFootprint.ofThisJvm().of(PART);
        long limit = (streams + 8L) * charge;
        UploadEngine engine =
                new UploadEngine(client, TestData.settings(4, limit).build());
        byte[] data = random(2 * PART + 7, 25);
        parts.close();

        List<WriterThread> writers = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            S3Location target = S3Location.of("s3", "bucket", "stream-" + i);
            writers.add(WriterThread.start("writer-" + i, () -> write(engine, target, data)));
        }

        await().atMost(Duration.ofSeconds(20))
                .until(() -> parts.held() >= 1 && writers.stream().allMatch(WriterThread::isWaiting));
        assertThat(parts.held()).isLessThanOrEqualTo((int) (limit / charge));
        assertThat(engine.metrics().bytesBuffered()).isLessThanOrEqualTo(limit);

        parts.open();
        for (WriterThread writer : writers) {
            writer.join();
        }
        assertThat(engine.budget().peakHeldBytes()).isLessThanOrEqualTo(limit);
        for (int i = 0; i < streams; i++) {
            assertThat(crc(client.bytesOf(S3Location.of("s3", "bucket", "stream-" + i))))
                    .isEqualTo(crc(data));
        }
        assertThat(client.calls(Operation.UPLOAD_PART)).isEqualTo(3 * streams);
        assertThat(engine.budget().overcommittedGrants()).isZero();
        assertThat(engine.budget().heldBytes()).isZero();
    }

    /**
     * One task thread writing many files in turn (a FileSink with many buckets) holds a part buffer
     * in each: with a budget smaller than those buffers and nothing in flight, waiting could never
     * end, so the budget grants beyond its limit instead of deadlocking the thread.
     */
    @Test
    void oneThreadWritingManyStreamsInTurnNeverWaitsForItself() throws Exception {
        int streams = 8;
        UploadEngine engine =
                new UploadEngine(client, TestData.settings(4, 2L * PART).build());
        byte[] data = random(2 * PART + 7, 26);
        List<MultipartUploadStream> outs = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            outs.add(engine.openStream(S3Location.of("s3", "bucket", "bucket-" + i), WriteCondition.NONE));
        }

        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            int slice = 64 * 1024;
            for (int offset = 0; offset < data.length; offset += slice) {
                for (MultipartUploadStream out : outs) {
                    out.write(data, offset, Math.min(slice, data.length - offset));
                }
            }
            for (MultipartUploadStream out : outs) {
                out.close();
            }
        });

        for (int i = 0; i < streams; i++) {
            assertThat(crc(client.bytesOf(S3Location.of("s3", "bucket", "bucket-" + i))))
                    .isEqualTo(crc(data));
        }
        assertThat(engine.budget().overcommittedGrants()).isPositive();
        assertThat(engine.budget().heldBytes()).isZero();
    }

    @Test
    void interruptReleasesABlockedWriterAndCloseAbortsTheUpload() throws Exception {
        UploadEngine engine =
                new UploadEngine(client, TestData.settings(1, 256L * MIB).build());
        S3Location target = S3Location.of("s3", "bucket", "interrupted");
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        parts.close();

        WriterThread writing = WriterThread.start("writer", () -> writeInSlices(out, random(3 * PART, 24)));
        await().atMost(Duration.ofSeconds(10)).until(() -> parts.held() == 1 && writing.isWaiting());
        writing.interrupt();

        assertThatThrownBy(writing::join).isInstanceOf(InterruptedIOException.class);
        parts.open();
        assertThatThrownBy(out::close).isInstanceOf(InterruptedIOException.class);
        assertThat(client.exists(target)).isFalse();
        assertThat(client.listMultipartUploads("bucket", "")).isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> engine.budget().heldBytes() == 0);
    }

    private static void write(UploadEngine engine, S3Location target, byte[] data) throws Exception {
        try (MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE)) {
            writeInSlices(out, data);
        }
    }
}
