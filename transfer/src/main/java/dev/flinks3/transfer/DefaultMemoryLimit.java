package dev.flinks3.transfer;

/**
 * The one rule for how much heap the plugin's buffers of one kind may hold together when no limit is
 * configured: 1 GiB or a quarter of the JVM's maximum heap, whichever is smaller, so a small
 * TaskManager heap is not filled with buffers. The read-ahead windows of {@link
 * dev.flinks3.transfer.sdk.S3ClientOwner S3ClientOwner} are bounded by it, and so is the default of
 * the upload part buffers.
 */
public final class DefaultMemoryLimit {

    /** The limit on a heap of 4 GiB or more. */
    public static final long CAP_BYTES = 1L << 30;

    private DefaultMemoryLimit() {}

    /**
     * @param maxHeap the JVM's maximum heap in bytes ({@link Runtime#maxMemory()})
     * @return the limit in bytes: {@value #CAP_BYTES} or {@code maxHeap / 4}, whichever is smaller
     */
    public static long of(long maxHeap) {
        return Math.min(CAP_BYTES, maxHeap / 4);
    }

    /** The limit for this JVM's maximum heap. */
    public static long ofThisJvm() {
        return of(Runtime.getRuntime().maxMemory());
    }
}
