package dev.flinks3.multipart;

import java.io.InterruptedIOException;
import java.lang.ref.SoftReference;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Heap buffers for parts, with every byte of heap they take counted against the {@link UploadBudget}:
 * a buffer is charged its {@linkplain HeapFootprint heap footprint} (array header and, with G1, the rest
 * of the last region of a humongous array), not only its capacity, so the limit bounds the heap the
 * buffers take (an 8 MiB buffer is charged 9 MiB on 1 MiB regions).
 *
 * <p>Buffers of the base part size are kept for reuse when given back (up to {@code maxIdleBuffers}),
 * so a busy process does not allocate and collect a part-sized array per part (on a heap of a few GiB
 * such arrays are humongous objects that pile up until a collection finds them). Idle buffers hold no
 * budget while idle but count against its limit ({@link UploadBudget#keepIdle}): a buffer is kept only
 * while the bytes in use and idle fit in the limit, and idle buffers are dropped when a new allocation
 * needs their room, so used and idle buffers together stay within the limit. They are held softly: the
 * garbage collector may take them back when the heap runs short, and a later {@link #take} allocates
 * again. Buffers of other sizes (the small first buffers of a stream, grown parts) are allocated and
 * dropped. Thread-safe.
 */
public final class PartBufferPool {

    private final UploadBudget budget;
    private final int pooledBytes;
    private final int maxIdleBuffers;
    private final HeapFootprint footprint;
    private final ArrayDeque<SoftReference<ByteBuffer>> idle = new ArrayDeque<>();

    /**
     * @param budget counts the bytes of buffers handed out
     * @param pooledBytes capacity of the buffers kept for reuse (the base part size)
     * @param maxIdleBuffers how many idle buffers to keep, 0 for none
     */
    public PartBufferPool(UploadBudget budget, int pooledBytes, int maxIdleBuffers) {
        this(budget, pooledBytes, maxIdleBuffers, HeapFootprint.ofThisJvm());
    }

    /** As above, with the footprint rule given (tests: a region size other than this JVM's). */
    PartBufferPool(UploadBudget budget, int pooledBytes, int maxIdleBuffers, HeapFootprint footprint) {
        this.budget = budget;
        this.pooledBytes = pooledBytes;
        this.maxIdleBuffers = maxIdleBuffers;
        this.footprint = footprint;
    }

    /**
     * The budget bytes a buffer of {@code capacity} bytes is charged: its heap footprint, but never more
     * than the limit (a limit of exactly one part still grants one part).
     */
    long charge(int capacity) {
        return Math.min(footprint.of(capacity), budget.limitBytes());
    }

    /**
     * A cleared buffer of exactly {@code capacity} bytes, after taking its {@linkplain #charge charge} of budget.
     *
     * @throws InterruptedIOException if interrupted while waiting for budget
     */
    public ByteBuffer take(int capacity) throws InterruptedIOException {
        budget.acquire(charge(capacity));
        if (capacity == pooledBytes) {
            ByteBuffer reused = pollIdle();
            if (reused != null) {
                reused.clear();
                return reused;
            }
        }
        dropIdleExcess();
        return ByteBuffer.allocate(capacity);
    }

    /**
     * A buffer of {@code capacity} bytes holding what was written into {@code smaller}, positioned
     * after it; takes only the budget for the extra charge. {@code smaller} is dead afterwards: for the
     * moment of the copy both arrays exist while the budget counts the larger one.
     *
     * @param smaller a buffer from {@link #take} or an earlier grow, smaller than {@code capacity}
     * @throws InterruptedIOException if interrupted while waiting for budget
     */
    public ByteBuffer grow(ByteBuffer smaller, int capacity) throws InterruptedIOException {
        budget.acquire(charge(capacity) - charge(smaller.capacity()));
        dropIdleExcess();
        ByteBuffer larger = ByteBuffer.allocate(capacity);
        smaller.flip();
        larger.put(smaller);
        return larger;
    }

    /**
     * Marks a buffer from {@link #take} as handed to S3: its bytes come back when S3 answers, so
     * writers short of budget may wait for them ({@link UploadBudget#markInFlight}).
     */
    public void markInFlight(ByteBuffer buffer) {
        budget.markInFlight(charge(buffer.capacity()));
    }

    /** Gives back a buffer from {@link #take}, never marked in flight; its contents are dead from now on. */
    public void give(ByteBuffer buffer) {
        give(buffer, false);
    }

    /**
     * Gives back a buffer from {@link #take}; its contents are dead from now on.
     *
     * @param wasInFlight whether it was {@linkplain #markInFlight marked in flight}
     */
    public void give(ByteBuffer buffer, boolean wasInFlight) {
        budget.release(charge(buffer.capacity()), wasInFlight);
        if (buffer.capacity() == pooledBytes) {
            synchronized (this) {
                if (idle.size() < maxIdleBuffers && budget.keepIdle(charge(pooledBytes))) {
                    idle.addFirst(new SoftReference<>(buffer));
                }
            }
        }
    }

    /** Idle buffers kept for reuse (some may have been collected since). */
    public synchronized int idleBuffers() {
        return idle.size();
    }

    /** The most recently given back idle buffer the collector left alone, or {@code null}. */
    private synchronized ByteBuffer pollIdle() {
        while (!idle.isEmpty()) {
            ByteBuffer buffer = idle.pollFirst().get();
            budget.idleGone(charge(pooledBytes));
            if (buffer != null) {
                return buffer;
            }
        }
        return null;
    }

    /** Drops the oldest idle buffers while used and idle bytes together exceed the budget's limit. */
    private synchronized void dropIdleExcess() {
        while (!idle.isEmpty() && budget.idleExcess() > 0) {
            idle.pollLast();
            budget.idleGone(charge(pooledBytes));
        }
    }
}
