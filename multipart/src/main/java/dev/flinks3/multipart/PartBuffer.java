package dev.flinks3.multipart;

import java.io.InterruptedIOException;
import java.nio.ByteBuffer;

/**
 * The part a stream is filling: a heap buffer that fills up to the part's size.
 *
 * <p>A stream's first buffer starts at {@value #FIRST_CAPACITY} bytes and doubles as it fills, so the
 * many small files of a checkpoint hold only about what they wrote; once a stream has filled a part,
 * its next buffers take the whole part size at once. Every byte of capacity is counted by the
 * {@link PartBufferPool}'s budget, so growing may block. Used by one thread at a time.
 */
final class PartBuffer {

    /** Capacity of a stream's first buffer, in bytes. */
    static final int FIRST_CAPACITY = 64 * 1024;

    private final PartBufferPool pool;
    private final int partBytes;
    private ByteBuffer buffer;
    private boolean inFlight;

    private PartBuffer(PartBufferPool pool, int partBytes, ByteBuffer buffer) {
        this.pool = pool;
        this.partBytes = partBytes;
        this.buffer = buffer;
    }

    /** A buffer that starts small and grows to {@code partBytes}; for a stream's first part. */
    static PartBuffer growing(PartBufferPool pool, int partBytes) throws InterruptedIOException {
        return new PartBuffer(pool, partBytes, pool.take(Math.min(partBytes, FIRST_CAPACITY)));
    }

    /** A buffer of the whole part size at once; for the parts after a stream's first. */
    static PartBuffer full(PartBufferPool pool, int partBytes) throws InterruptedIOException {
        return new PartBuffer(pool, partBytes, pool.take(partBytes));
    }

    /**
     * Copies as many of {@code len} bytes as fit into the part.
     *
     * @return the number of bytes copied, 0 only if the part is full
     * @throws InterruptedIOException if interrupted while waiting for budget to grow
     */
    int write(byte[] bytes, int offset, int len) throws InterruptedIOException {
        if (!buffer.hasRemaining() && !grow()) {
            return 0;
        }
        int n = Math.min(len, buffer.remaining());
        buffer.put(bytes, offset, n);
        return n;
    }

    /** Appends one byte; returns false if the part is full. */
    boolean write(int b) throws InterruptedIOException {
        if (!buffer.hasRemaining() && !grow()) {
            return false;
        }
        buffer.put((byte) b);
        return true;
    }

    /** True when the part holds its full size. */
    boolean isFull() {
        return buffer.position() == partBytes;
    }

    /** Bytes written into this part. */
    int size() {
        return buffer.position();
    }

    /**
     * The bytes written, as a buffer positioned at 0 with the limit at {@link #size()}, sharing this
     * part's memory: valid until the next write or {@link #release()}.
     */
    ByteBuffer contents() {
        ByteBuffer view = buffer.duplicate();
        view.flip();
        return view;
    }

    /** Marks the part as handed to S3 (see {@link PartBufferPool#markInFlight}); no writes follow. */
    synchronized void markInFlight() {
        if (buffer != null && !inFlight) {
            pool.markInFlight(buffer);
            inFlight = true;
        }
    }

    /** Returns the memory to the pool; idempotent. May run on another thread than the writes. */
    synchronized void release() {
        if (buffer != null) {
            pool.give(buffer, inFlight);
            buffer = null;
        }
    }

    private boolean grow() throws InterruptedIOException {
        int capacity = buffer.capacity();
        if (capacity >= partBytes) {
            return false;
        }
        buffer = pool.grow(buffer, (int) Math.min(partBytes, 2L * capacity));
        return true;
    }
}
