package dev.flinks3.multipart;

import java.io.InterruptedIOException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The process-wide bound on bytes held in part buffers (being filled or being uploaded), shared by
 * every upload stream of one {@link UploadEngine}. A writer that needs buffer space beyond the bound
 * blocks until uploads finish and give bytes back: that wait is the back-pressure that keeps a slow
 * S3 from filling the heap.
 *
 * <p>Bytes are acquired when a buffer is allocated or grown and released when the buffer's part has
 * been uploaded (or dropped). Thread-safe.
 */
public final class UploadBudget {

    private final long limitBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    private long heldBytes;
    private long peakHeldBytes;

    /** @param limitBytes the most bytes held at once, at least 1 */
    public UploadBudget(long limitBytes) {
        if (limitBytes < 1) {
            throw new IllegalArgumentException("buffer limit " + limitBytes + " bytes must be at least 1");
        }
        this.limitBytes = limitBytes;
    }

    /**
     * Takes {@code bytes}, waiting as long as they would push the held bytes past the limit.
     *
     * @throws InterruptedIOException if the thread is interrupted while waiting (its interrupt flag is
     *     set again); nothing is taken then
     * @throws IllegalArgumentException if {@code bytes} alone exceeds the limit, so it could never be granted
     */
    public void acquire(long bytes) throws InterruptedIOException {
        checkRequest(bytes);
        lock.lock();
        try {
            while (heldBytes + bytes > limitBytes) {
                released.await();
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

    /** Takes {@code bytes} if that stays within the limit; never waits. */
    public boolean tryAcquire(long bytes) {
        checkRequest(bytes);
        lock.lock();
        try {
            if (heldBytes + bytes > limitBytes) {
                return false;
            }
            take(bytes);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Gives back {@code bytes} taken earlier and wakes waiting writers. */
    public void release(long bytes) {
        lock.lock();
        try {
            if (bytes < 0 || bytes > heldBytes) {
                throw new IllegalStateException("releasing " + bytes + " bytes but only " + heldBytes + " are held");
            }
            heldBytes -= bytes;
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Bytes held now (a gauge for metrics). */
    public long heldBytes() {
        lock.lock();
        try {
            return heldBytes;
        } finally {
            lock.unlock();
        }
    }

    /** The most bytes ever held at once. */
    public long peakHeldBytes() {
        lock.lock();
        try {
            return peakHeldBytes;
        } finally {
            lock.unlock();
        }
    }

    /** The bound, in bytes. */
    public long limitBytes() {
        return limitBytes;
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
