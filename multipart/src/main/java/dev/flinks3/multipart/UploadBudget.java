package dev.flinks3.multipart;

import dev.flinks3.transfer.options.S3Options;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process-wide bound on bytes held in part buffers (being filled or being uploaded), shared by
 * every upload stream of one {@link UploadEngine}. A writer that needs buffer space beyond the bound
 * blocks until uploads finish and give bytes back: that wait is the back-pressure that keeps a slow
 * S3 from filling the heap.
 *
 * <p>Bytes are acquired when a buffer is allocated or grown and released when the buffer's part has
 * been uploaded (or dropped). A buffer handed to S3 is marked {@linkplain #markInFlight in flight}:
 * its bytes come back without any writer's help. A writer waits only while some bytes are in flight;
 * when none are, every held byte sits in a buffer some writer is still filling (one task thread
 * writing many files in turn, or more streams growing their first parts than the limit holds), so
 * waiting could never end: the request is then granted beyond the limit and counted in
 * {@link #overcommittedGrants()}. The limit therefore holds whenever the buffers being filled fit in
 * it (streams x part size below the limit), and a writer never deadlocks. Idle buffers that a {@link
 * PartBufferPool} keeps for reuse count against the limit as well ({@link #keepIdle}): a pool keeps one
 * only while held and idle bytes fit, and drops idle ones when new buffers need their room, so the heap
 * of part buffers, used and idle, stays within the limit. Thread-safe.
 */
public final class UploadBudget {

    private static final Logger LOG = LoggerFactory.getLogger(UploadBudget.class);

    private final long limitBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    private long heldBytes;
    private long idleBytes;
    private long inFlightBytes;
    private long peakHeldBytes;
    private long overcommittedGrants;
    private long blockedNanos;

    /** @param limitBytes the most bytes held at once, at least 1 */
    public UploadBudget(long limitBytes) {
        if (limitBytes < 1) {
            throw new IllegalArgumentException("buffer limit " + limitBytes + " bytes must be at least 1");
        }
        this.limitBytes = limitBytes;
    }

    /**
     * Takes {@code bytes}, waiting as long as they would push the held bytes past the limit and bytes
     * in flight may still free room; with nothing in flight it takes them at once, beyond the limit.
     *
     * @throws InterruptedIOException if the thread is interrupted while waiting (its interrupt flag is
     *     set again); nothing is taken then
     * @throws IllegalArgumentException if {@code bytes} alone exceeds the limit, so it could never be granted
     */
    public void acquire(long bytes) throws InterruptedIOException {
        checkRequest(bytes);
        lock.lock();
        try {
            if (heldBytes + bytes > limitBytes && inFlightBytes > 0) {
                long start = System.nanoTime();
                try {
                    while (heldBytes + bytes > limitBytes && inFlightBytes > 0) {
                        released.await();
                    }
                } finally {
                    blockedNanos += System.nanoTime() - start;
                }
            }
            if (heldBytes + bytes > limitBytes) {
                overcommitted(bytes);
            }
            take(bytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted =
                    new InterruptedIOException("interrupted while waiting for " + bytes + " bytes of upload buffer");
            interrupted.initCause(e);
            throw interrupted;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Marks {@code bytes} held as handed to S3: they will be released when S3 answers.
     *
     * @throws IllegalStateException if more bytes would be in flight than are held
     */
    public void markInFlight(long bytes) {
        lock.lock();
        try {
            if (bytes < 0 || inFlightBytes + bytes > heldBytes) {
                throw new IllegalStateException("marking " + bytes + " bytes in flight but only " + heldBytes
                        + " are held and " + inFlightBytes + " already in flight");
            }
            inFlightBytes += bytes;
        } finally {
            lock.unlock();
        }
    }

    /** Gives back {@code bytes} taken earlier, never marked in flight, and wakes waiting writers. */
    public void release(long bytes) {
        release(bytes, false);
    }

    /**
     * Gives back {@code bytes} taken earlier and wakes waiting writers.
     *
     * @param wasInFlight whether the bytes were {@linkplain #markInFlight marked in flight}
     * @throws IllegalStateException if fewer bytes are held (or in flight) than given back
     */
    public void release(long bytes, boolean wasInFlight) {
        lock.lock();
        try {
            if (bytes < 0 || bytes > heldBytes || (wasInFlight && bytes > inFlightBytes)) {
                throw new IllegalStateException("releasing " + bytes + (wasInFlight ? " bytes in flight" : " bytes")
                        + " but " + heldBytes + " are held and " + inFlightBytes + " in flight");
            }
            heldBytes -= bytes;
            if (wasInFlight) {
                inFlightBytes -= bytes;
            }
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until no part bytes are in flight (every part handed to S3 has its answer), at most
     * {@code timeoutMs}: closing a filesystem lets running uploads finish before the client goes.
     *
     * @return true if nothing is in flight, false if the time ran out first
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public boolean awaitNothingInFlight(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        lock.lock();
        try {
            while (inFlightBytes > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                released.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Counts {@code bytes} of an idle buffer a {@link PartBufferPool} wants to keep for reuse, if the
     * held and idle bytes stay within the limit with it: idle buffers are heap the limit counts too.
     *
     * @return true if the buffer may be kept (and is now counted as idle), false if it is to be dropped
     */
    boolean keepIdle(long bytes) {
        lock.lock();
        try {
            if (heldBytes + idleBytes + bytes > limitBytes) {
                return false;
            }
            idleBytes += bytes;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** An idle buffer counted by {@link #keepIdle} was taken again or dropped. */
    void idleGone(long bytes) {
        lock.lock();
        try {
            idleBytes = Math.max(0, idleBytes - bytes);
        } finally {
            lock.unlock();
        }
    }

    /** Bytes by which held and idle buffers together exceed the limit now: idle buffers to drop, 0 if none. */
    long idleExcess() {
        lock.lock();
        try {
            return Math.min(idleBytes, Math.max(0, heldBytes + idleBytes - limitBytes));
        } finally {
            lock.unlock();
        }
    }

    /** Bytes of idle buffers kept by the pools on this budget (a gauge for tests). */
    public long idleBytes() {
        return locked(() -> idleBytes);
    }

    /** Bytes held now (a gauge for metrics). */
    public long heldBytes() {
        return locked(() -> heldBytes);
    }

    /** The most bytes ever held at once. */
    public long peakHeldBytes() {
        return locked(() -> peakHeldBytes);
    }

    /** Bytes marked in flight now, in bytes: part bodies S3 has not answered yet. */
    public long inFlightBytes() {
        return locked(() -> inFlightBytes);
    }

    /** How many requests were granted beyond the limit because nothing was in flight to wait for. */
    public long overcommittedGrants() {
        return locked(() -> overcommittedGrants);
    }

    /** Time writers spent waiting in {@link #acquire} for bytes to come back, summed over writers, in ns. */
    public long blockedNanos() {
        return locked(() -> blockedNanos);
    }

    /** The bound, in bytes. */
    public long limitBytes() {
        return limitBytes;
    }

    private long locked(LongSupplier field) {
        lock.lock();
        try {
            return field.getAsLong();
        } finally {
            lock.unlock();
        }
    }

    private void overcommitted(long bytes) {
        if (overcommittedGrants++ == 0) {
            LOG.warn(
                    "Upload buffers exceed their process-wide limit of {} bytes ({} held, {} more requested): every held"
                            + " byte is in a part still being written and none is in flight to wait for. More files are open"
                            + " for writing at once than the limit holds parts for; raise the limit ("
                            + S3Options.MAX_BUFFERED_SIZE.key() + ")"
                            + " or lower the part size. Logged once; later grants are only counted.",
                    limitBytes,
                    heldBytes,
                    bytes);
        }
    }

    private void take(long bytes) {
        heldBytes += bytes;
        peakHeldBytes = Math.max(peakHeldBytes, heldBytes);
    }

    private void checkRequest(long bytes) {
        if (bytes < 0 || bytes > limitBytes) {
            throw new IllegalArgumentException(
                    "request of " + bytes + " bytes cannot be granted by a limit of " + limitBytes + " bytes");
        }
    }
}
