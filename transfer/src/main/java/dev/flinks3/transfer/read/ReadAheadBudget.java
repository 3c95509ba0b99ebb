package dev.flinks3.transfer.read;

import java.util.ArrayList;
import java.util.List;

/**
 * The process-wide bound on bytes that sequential readers hold in their read-ahead windows. Words as
 * in {@link ParallelReadAhead}: a reader's window is the run of chunks it holds ahead of itself, a
 * chunk the buffer of one ranged GET. A reader asks for its chunks when its read-ahead starts and gets
 * what is free, never waiting: with fewer than two chunks free it reads over one connection instead
 * (no window), so many concurrent readers slow down rather than exhaust the heap. The chunks are
 * given back when the read-ahead closes.
 *
 * <p>It also bounds the positional walks of all streams ({@link PositionalReads}): each holds one connection
 * (a streamed ranged GET) while its stream is open, so at most {@value #MAX_OPEN_WALKS} are open at once; when
 * that many are, a new walk takes the place of one that has been idle for a while, or is not opened. Thread-safe.
 */
public final class ReadAheadBudget {

    /**
     * Positional walks (each a streamed GET, one connection) open at once in the process, at most: a few per
     * reading thread of a state backend, far below the connection pool (a ForSt job whose file streams each kept
     * a connection ran hadoop's pool of 96 dry).
     */
    public static final int MAX_OPEN_WALKS = 32;

    private final long limitBytes;
    private final int maxOpenWalks;
    private long heldBytes;
    private long peakHeldBytes;
    private int openWalks;
    /**
     * The streams that have opened walks: where an idle one is looked for when all are in use. Weakly held, so a
     * stream its user never closed does not stay in memory for it.
     */
    private final java.util.Set<PositionalReads> walkOwners =
            java.util.Collections.synchronizedSet(java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>()));

    /** @param limitBytes the most bytes the chunks of all read-ahead windows may hold together, at least 0 */
    public ReadAheadBudget(long limitBytes) {
        this(limitBytes, MAX_OPEN_WALKS);
    }

    /**
     * @param limitBytes the most bytes the chunks of all read-ahead windows may hold together, at least 0
     * @param maxOpenWalks the most positional walks open at once, at least 0
     */
    public ReadAheadBudget(long limitBytes, int maxOpenWalks) {
        if (limitBytes < 0 || maxOpenWalks < 0) {
            throw new IllegalArgumentException(
                    "read-ahead limit " + limitBytes + " bytes and " + maxOpenWalks + " walks must not be negative");
        }
        this.limitBytes = limitBytes;
        this.maxOpenWalks = maxOpenWalks;
    }

    /**
     * Takes one of the open walks for {@code owner}; if all are taken, closes a walk of another stream that has
     * been idle ({@link PositionalReads#closeIdleWalk}) and takes its place. Call without holding a stream's lock.
     *
     * @return whether a walk may open; give it back with {@link #walkClosed()}
     */
    boolean tryOpenWalk(PositionalReads owner) {
        if (takeWalk()) {
            walkOwners.add(owner);
            return true;
        }
        List<PositionalReads> others;
        synchronized (walkOwners) {
            others = new ArrayList<>(walkOwners);
        }
        for (PositionalReads other : others) {
            if (other.closeIdleWalk() && takeWalk()) {
                walkOwners.add(owner);
                return true;
            }
        }
        return false;
    }

    private synchronized boolean takeWalk() {
        if (openWalks >= maxOpenWalks) {
            return false;
        }
        openWalks++;
        return true;
    }

    /** Gives back one walk taken by {@link #tryOpenWalk}. */
    synchronized void walkClosed() {
        if (openWalks <= 0) {
            throw new IllegalStateException("a walk closed but none is open");
        }
        openWalks--;
    }

    /** Stops looking at {@code owner}'s walks: its stream closed. */
    void forgetWalks(PositionalReads owner) {
        walkOwners.remove(owner);
    }

    /** Positional walks open now. */
    public synchronized int openWalks() {
        return openWalks;
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
     * Gives back chunks taken by {@link #tryAcquire}.
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
