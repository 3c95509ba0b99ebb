package dev.flinks3.transfer.read;

/**
 * The process-wide bound on bytes that sequential readers hold in their read-ahead windows. Words as
 * in {@link ParallelReadAhead}: a reader's window is the run of chunks it holds ahead of itself, a
 * chunk the buffer of one ranged GET. A reader asks for its chunks when its read-ahead starts and gets
 * what is free, never waiting: with fewer than two chunks free it reads over one connection instead
 * (no window), so many concurrent readers slow down rather than exhaust the heap. The chunks are
 * given back when the read-ahead closes. The blocks of positional reads that walk through an object
 * ({@link PositionalReadAhead}) take their bytes from the same budget, one buffer each. Thread-safe.
 */
public final class ReadAheadBudget {

    private final long limitBytes;
    private long heldBytes;
    private long peakHeldBytes;

    /** @param limitBytes the most bytes the chunks of all read-ahead windows may hold together, at least 0 */
    public ReadAheadBudget(long limitBytes) {
        if (limitBytes < 0) {
            throw new IllegalArgumentException("read-ahead limit " + limitBytes + " bytes must not be negative");
        }
        this.limitBytes = limitBytes;
    }

    /**
     * Takes as many of {@code chunks} chunks of {@code chunkBytes} as fit under the limit.
     *
     * @return the chunks taken: {@code chunks} or fewer, and 0 rather than 1 (a window of one chunk
     *     is no parallel read-ahead)
     */
    public synchronized int tryAcquire(int chunks, int chunkBytes) {
        if (chunks < 1 || chunkBytes < 1) {
            throw new IllegalArgumentException(chunks + " chunks of " + chunkBytes + " bytes");
        }
        long fitting = Math.min(chunks, (limitBytes - heldBytes) / chunkBytes);
        if (fitting < 2) {
            return 0;
        }
        heldBytes += fitting * chunkBytes;
        peakHeldBytes = Math.max(peakHeldBytes, heldBytes);
        return (int) fitting;
    }

    /**
     * Takes one buffer of {@code bytes} if it fits under the limit: a single block, such as {@link
     * PositionalReadAhead}'s, rather than a window. Give it back with {@code release(1, bytes)}.
     *
     * @return whether the buffer was taken
     */
    public synchronized boolean tryAcquireBuffer(int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("a buffer of " + bytes + " bytes");
        }
        if (limitBytes - heldBytes < bytes) {
            return false;
        }
        heldBytes += bytes;
        peakHeldBytes = Math.max(peakHeldBytes, heldBytes);
        return true;
    }

    /**
     * Gives back chunks taken by {@link #tryAcquire} (or a buffer taken by {@link #tryAcquireBuffer}).
     *
     * @throws IllegalStateException if more bytes are given back than are held
     */
    public synchronized void release(int chunks, int chunkBytes) {
        long bytes = (long) chunks * chunkBytes;
        if (bytes < 0 || bytes > heldBytes) {
            throw new IllegalStateException(
                    "releasing " + bytes + " bytes of read-ahead but " + heldBytes + " are held");
        }
        heldBytes -= bytes;
    }

    /** Bytes of chunks held now. */
    public synchronized long heldBytes() {
        return heldBytes;
    }

    /** The most bytes of chunks ever held at once. */
    public synchronized long peakHeldBytes() {
        return peakHeldBytes;
    }

    /** The bound, in bytes. */
    public long limitBytes() {
        return limitBytes;
    }
}
