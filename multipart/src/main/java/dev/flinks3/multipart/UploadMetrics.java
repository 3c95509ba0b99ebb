package dev.flinks3.multipart;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters and gauges of one {@link UploadEngine}, for the filesystem's metrics: parts and bytes
 * uploaded, single-request objects, parts in flight, bytes held in buffers (and their peak), multipart
 * uploads started, completed, aborted and persisted, the uploads this process still has to end, and the
 * time writers were blocked by back-pressure. Thread-safe; counters only grow.
 */
public final class UploadMetrics {

    private final UploadBudget budget;
    private final LongAdder partsUploaded = new LongAdder();
    private final LongAdder bytesUploaded = new LongAdder();
    private final LongAdder objectsPut = new LongAdder();
    private final LongAdder uploadsCompleted = new LongAdder();
    private final LongAdder uploadsAborted = new LongAdder();
    private final LongAdder uploadsStarted = new LongAdder();
    private final LongAdder uploadsPersisted = new LongAdder();
    /** Uploads this process started and has neither ended nor handed to persisted state (gauge). */
    private final AtomicLong uploadsOpen = new AtomicLong();

    private final LongAdder transferManagerUploadsStarted = new LongAdder();
    private final LongAdder transferManagerUploadsCompleted = new LongAdder();
    private final LongAdder permitWaitNanos = new LongAdder();
    private final AtomicInteger partsInFlight = new AtomicInteger();

    UploadMetrics(UploadBudget budget) {
        this.budget = budget;
    }

    /** Parts uploaded successfully. */
    public long partsUploaded() {
        return partsUploaded.sum();
    }

    /** Bytes uploaded successfully, in parts and single PutObjects. */
    public long bytesUploaded() {
        return bytesUploaded.sum();
    }

    /** Objects written with one PutObject. */
    public long objectsPut() {
        return objectsPut.sum();
    }

    /** Multipart uploads started (CreateMultipartUpload sent). */
    public long uploadsStarted() {
        return uploadsStarted.sum();
    }

    /** Multipart uploads completed. */
    public long uploadsCompleted() {
        return uploadsCompleted.sum();
    }

    /**
     * Uploads the S3 Transfer Manager reported started through its own callback ({@code
     * TransferListener.transferInitiated}), on the CRT-based S3 client.
     */
    public long transferManagerUploadsStarted() {
        return transferManagerUploadsStarted.sum();
    }

    /**
     * Uploads the S3 Transfer Manager reported complete through its own callback ({@code
     * TransferListener.transferComplete}), on the CRT-based S3 client; a subset of {@link
     * #uploadsCompleted()}.
     */
    public long transferManagerUploadsCompleted() {
        return transferManagerUploadsCompleted.sum();
    }

    /**
     * Multipart uploads this process started and handed to persisted state: a recoverable stream's upload
     * referenced by a checkpoint ({@code persist()} or {@code closeForCommit()}). From then on the upload is
     * Flink's: its committer completes it, or, if that checkpoint never completes, it stays open at the
     * server until a bucket lifecycle rule for incomplete multipart uploads removes it.
     */
    public long uploadsPersisted() {
        return uploadsPersisted.sum();
    }

    /**
     * Multipart uploads this process started and must still complete or abort (gauge): those of the streams
     * being written that no persisted state references. Uploads handed to persisted state are not among them
     * ({@link #uploadsPersisted()}), nor uploads continued from persisted state.
     */
    public long uploadsOpen() {
        return uploadsOpen.get();
    }

    /** Multipart uploads aborted after a failure or cancellation. */
    public long uploadsAborted() {
        return uploadsAborted.sum();
    }

    /** UploadPart requests sent and not yet answered (gauge). */
    public int partsInFlight() {
        return partsInFlight.get();
    }

    /** Bytes held in part buffers, being filled or uploaded (gauge). */
    public long bytesBuffered() {
        return budget.heldBytes();
    }

    /** The most bytes ever held in part buffers at once. */
    public long peakBytesBuffered() {
        return budget.peakHeldBytes();
    }

    /** The bound on bytes held in part buffers ({@code s3.upload.max-buffered-size}), in bytes. */
    public long bufferLimitBytes() {
        return budget.limitBytes();
    }

    /**
     * Time writers were blocked by back-pressure, summed over writers, in ns: waiting for one of their
     * stream's part permits, or for buffer bytes under the process-wide limit.
     */
    public long backPressureNanos() {
        return permitWaitNanos.sum() + budget.blockedNanos();
    }

    /**
     * Counts a multipart upload this process starts (CreateMultipartUpload sent), also one the Transfer
     * Manager runs; it is open until {@link #openUploadEnded()} or {@link #openUploadPersisted()}.
     */
    public void uploadStarted() {
        uploadsStarted.increment();
        uploadsOpen.incrementAndGet();
    }

    /** An upload counted by {@link #uploadStarted()} was completed or aborted (or its creation failed). */
    public void openUploadEnded() {
        uploadsOpen.decrementAndGet();
    }

    /** An upload counted by {@link #uploadStarted()} was handed to persisted state for the first time. */
    void openUploadPersisted() {
        uploadsOpen.decrementAndGet();
        uploadsPersisted.increment();
    }

    void waitedForPermit(long nanos) {
        permitWaitNanos.add(nanos);
    }

    void partStarted() {
        partsInFlight.incrementAndGet();
    }

    void partFinished(long bytes, boolean success) {
        partsInFlight.decrementAndGet();
        if (success) {
            partsUploaded.increment();
            bytesUploaded.add(bytes);
        }
    }

    void objectPut(long bytes) {
        objectsPut.increment();
        bytesUploaded.add(bytes);
    }

    /** Counts a multipart upload completed, also one the Transfer Manager ran. */
    public void uploadCompleted() {
        uploadsCompleted.increment();
    }

    /** Counts an upload the Transfer Manager's listener reported started. */
    public void transferManagerUploadStarted() {
        transferManagerUploadsStarted.increment();
    }

    /** Counts an upload the Transfer Manager's listener reported complete. */
    public void transferManagerUploadCompleted() {
        transferManagerUploadsCompleted.increment();
    }

    /** Counts a multipart upload aborted after a failure or cancellation, also one the Transfer Manager ran. */
    public void uploadAborted() {
        uploadsAborted.increment();
    }

    /**
     * Counts parts that another uploader (the Transfer Manager on the CRT-based S3 client) uploaded for a
     * stream of this engine, with their bytes.
     */
    public void partsUploaded(long parts, long bytes) {
        partsUploaded.add(parts);
        bytesUploaded.add(bytes);
    }
}
