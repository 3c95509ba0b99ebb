package dev.flinks3.transfer.read;

import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * Parallel read-ahead for a sequential reader: a window of up to {@code parallelism} consecutive
 * chunks of {@code chunkBytes}, each fetched by its own ranged GET straight into its buffer, so that one
 * stream uses several connections at once (S3 serves each connection at a bounded rate, so a
 * single-connection reader is capped by it; the AWS performance guidelines recommend concurrent
 * byte-range GETs for throughput).
 *
 * <p>The window starts at a given position and slides as the reader moves: a chunk the reader has
 * passed is released and the next one past the window's end is requested. Memory is bounded: the
 * window holds at most {@code parallelism} buffers of at most {@code chunkBytes}, reused as it slides.
 * A position outside the window ({@link #covers(long)} false) is not served: the caller falls back to
 * its single-connection path and closes this read-ahead.
 *
 * <p>Every chunk is fetched with {@code If-Match} and checked against the object's length and ETag
 * ({@link ObjectVersion}), so bytes of a replaced object are never mixed in. Not thread-safe: one reader thread; the HTTP client's threads only fill chunks.
 */
final class ParallelReadAhead implements Closeable {

    private final ObjectClient client;
    private final S3Location location;
    private final long objectLength;
    private final int chunkBytes;
    private final int parallelism;
    private final ObjectVersion version;
    private final ArrayDeque<ReadAheadChunk> window = new ArrayDeque<>();
    private final ArrayDeque<byte[]> spareBuffers = new ArrayDeque<>();
    private long nextChunkStart;

    /**
     * Starts fetching the first {@code parallelism} chunks from {@code start}.
     *
     * @param start the first byte to read ahead
     * @param objectLength the object's length in bytes
     * @param chunkBytes bytes per chunk (one ranged GET each)
     * @param parallelism chunks in the window, so GETs in flight at most and buffers held at most
     * @param version the version of the object the stream reads, shared by its GETs
     */
    ParallelReadAhead(
            ObjectClient client,
            S3Location location,
            long start,
            long objectLength,
            int chunkBytes,
            int parallelism,
            ObjectVersion version) {
        if (chunkBytes < 1 || parallelism < 1 || start < 0) {
            throw new IllegalArgumentException(
                    "read-ahead of " + parallelism + " chunks of " + chunkBytes + " bytes from byte " + start);
        }
        this.client = client;
        this.location = location;
        this.objectLength = objectLength;
        this.chunkBytes = chunkBytes;
        this.parallelism = parallelism;
        this.version = version;
        this.nextChunkStart = start;
        fill();
    }

    /** True if {@code position} lies inside the window (fetched, in flight, or next to be requested). */
    boolean covers(long position) {
        long first = window.isEmpty() ? nextChunkStart : window.peekFirst().start();
        return position >= first && position < objectLength && position - first < (long) parallelism * chunkBytes;
    }

    /**
     * Copies up to {@code len} bytes at {@code position} from the window, waiting for the chunk that
     * holds them, and slides the window to start at that chunk.
     *
     * @return bytes copied, at least 1 for {@code len > 0}
     * @throws IllegalStateException if {@code position} is not {@linkplain #covers(long) covered}
     * @throws IOException as {@link ReadAheadChunk#await()}
     */
    int read(long position, byte[] b, int off, int len) throws IOException {
        if (!covers(position)) {
            throw new IllegalStateException("byte " + position + " is outside the read-ahead window of " + location);
        }
        while (window.peekFirst() != null && window.peekFirst().end() <= position) {
            release(window.pollFirst());
        }
        // The window was full (or reached the object's end) and covered the position, so after the
        // slide its first chunk holds the position.
        fill();
        ReadAheadChunk head = window.peekFirst();
        if (head == null || head.start() > position) {
            throw new IllegalStateException("read-ahead window of " + location + " lost byte " + position);
        }
        head.await();
        int offset = (int) (position - head.start());
        int n = (int) Math.min(len, head.end() - position);
        System.arraycopy(head.buffer(), offset, b, off, n);
        return n;
    }

    /** Bytes of buffer this read-ahead holds (in the window and kept for reuse). */
    long bufferedBytes() {
        long total = 0;
        for (ReadAheadChunk chunk : window) {
            total += chunk.buffer().length;
        }
        for (byte[] spare : spareBuffers) {
            total += spare.length;
        }
        return total;
    }

    /** Cancels every chunk (aborting GETs in flight) and drops all buffers. Idempotent. */
    @Override
    public void close() {
        for (ReadAheadChunk chunk : window) {
            chunk.cancel();
        }
        window.clear();
        spareBuffers.clear();
        nextChunkStart = objectLength;
    }

    /** Requests chunks until the window is full or reaches the object's end. */
    private void fill() {
        while (window.size() < parallelism && nextChunkStart < objectLength) {
            int length = (int) Math.min(chunkBytes, objectLength - nextChunkStart);
            ReadAheadChunk chunk =
                    new ReadAheadChunk(client, location, nextChunkStart, length, objectLength, buffer(length), version);
            window.addLast(chunk);
            nextChunkStart += length;
            chunk.fetch();
        }
    }

    private byte[] buffer(int length) {
        byte[] spare = spareBuffers.pollFirst();
        return spare != null && spare.length >= length ? spare : new byte[length];
    }

    /** Reuses the buffer of a fetched chunk; cancels one still in flight, whose buffer its GET may still write. */
    private void release(ReadAheadChunk chunk) {
        if (chunk.isFetched()) {
            spareBuffers.addLast(chunk.buffer());
        } else {
            chunk.cancel();
        }
    }
}
