package dev.flinks3.transfer.read;

/**
 * The process-wide bound on bytes that sequential readers hold in parallel read-ahead windows. A
 * reader asks for its windows when its read-ahead starts and gets what is free, never waiting: with
 * fewer than two windows free it reads over one connection instead (no window buffers), so many
 * concurrent readers slow down rather than exhaust the heap. Windows are given back when the
 * read-ahead closes. Thread-safe.
 */
public final class ReadAheadBudget {

    private final long limitBytes;
    private long heldBytes;
    private long peakHeldBytes;

    /** @param limitBytes the most bytes all read-ahead windows may hold together, at least 0 */
    public ReadAheadBudget(long limitBytes) {
        if (limitBytes < 0) {
            throw new IllegalArgumentException("read-ahead limit " + limitBytes + " bytes must not be negative");
        }
        this.limitBytes = limitBytes;
    }

    /**
     * Takes as many of {@code windows} windows of {@code windowBytes} as fit under the limit.
     *
     * @return the windows taken: {@code windows} or fewer, and 0 rather than 1 (one window is no
     *     parallel read-ahead)
     */
    public synchronized int tryAcquire(int windows, int windowBytes) {
        if (windows < 1 || windowBytes < 1) {
            throw new IllegalArgumentException(windows + " windows of " + windowBytes + " bytes");
        }
        long fitting = Math.min(windows, (limitBytes - heldBytes) / windowBytes);
        if (fitting < 2) {
            return 0;
        }
        heldBytes += fitting * windowBytes;
        peakHeldBytes = Math.max(peakHeldBytes, heldBytes);
        return (int) fitting;
    }

    /**
     * Gives back windows taken by {@link #tryAcquire}.
     *
     * @throws IllegalStateException if more bytes are given back than are held
     */
    public synchronized void release(int windows, int windowBytes) {
        long bytes = (long) windows * windowBytes;
        if (bytes < 0 || bytes > heldBytes) {
            throw new IllegalStateException(
                    "releasing " + bytes + " bytes of read-ahead but " + heldBytes + " are held");
        }
        heldBytes -= bytes;
    }

    /** Bytes of windows held now. */
    public synchronized long heldBytes() {
        return heldBytes;
    }

    /** The most bytes of windows ever held at once. */
    public synchronized long peakHeldBytes() {
        return peakHeldBytes;
    }

    /** The bound, in bytes. */
    public long limitBytes() {
        return limitBytes;
    }
}
