package dev.flinks3.multipart;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters and gauges of one {@link UploadEngine}, for the filesystem's metric group: parts and
 * bytes uploaded, single-request objects, parts in flight, bytes held in buffers, uploads completed
 * and aborted. Thread-safe; counters only grow.
 */
public final class UploadMetrics {

    private final UploadBudget budget;
    private final LongAdder partsUploaded = new LongAdder();
    private final LongAdder bytesUploaded = new LongAdder();
    private final LongAdder objectsPut = new LongAdder();
    private final LongAdder uploadsCompleted = new LongAdder();
    private final LongAdder uploadsAborted = new LongAdder();
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

    /** Multipart uploads completed. */
    public long uploadsCompleted() {
        return uploadsCompleted.sum();
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

    void uploadCompleted() {
        uploadsCompleted.increment();
    }

    void uploadAborted() {
        uploadsAborted.increment();
    }
}
