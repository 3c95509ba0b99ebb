package dev.flinks3.transfer.read;

import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bytes {@code [start, start + length)} of an object, fetched ahead of the reader by one ranged GET
 * (re-requested from where it broke if a body breaks, see {@link RangeReader}) into a buffer.
 *
 * <p>Whoever comes first fetches it: a worker of the read-ahead executor ({@link #run()}) or the
 * reader itself in {@link #await()} when no worker has started it yet, so a busy or saturated
 * executor slows read-ahead down but never stalls the reader. Thread-safe.
 */
final class ReadAheadChunk implements Runnable {

    private final ObjectClient client;
    private final S3Location location;
    private final long start;
    private final int length;
    private final long objectLength;
    private final byte[] buffer;
    private final AtomicBoolean claimed = new AtomicBoolean();
    private final CompletableFuture<Integer> fetched = new CompletableFuture<>();
    private volatile RangeReader reader;
    private volatile boolean cancelled;

    /**
     * @param buffer receives the bytes from index 0; at least {@code length} long and not touched by
     *     anyone else until the chunk is done or cancelled
     * @param objectLength the object's length in bytes; a GET that reports another length fails
     */
    ReadAheadChunk(ObjectClient client, S3Location location, long start, int length, long objectLength, byte[] buffer) {
        if (buffer.length < length) {
            throw new IllegalArgumentException("buffer of " + buffer.length + " bytes for a chunk of " + length);
        }
        this.client = client;
        this.location = location;
        this.start = start;
        this.length = length;
        this.objectLength = objectLength;
        this.buffer = buffer;
    }

    long start() {
        return start;
    }

    /** The byte after this chunk's last byte. */
    long end() {
        return start + length;
    }

    byte[] buffer() {
        return buffer;
    }

    /** Fetches the chunk unless someone else already does (or it was cancelled). Never throws. */
    @Override
    public void run() {
        if (!claimed.compareAndSet(false, true)) {
            return;
        }
        if (cancelled) {
            fetched.cancel(false);
            return;
        }
        RangeReader opened = new RangeReader(client, location, start, start + length, objectLength);
        reader = opened;
        if (cancelled) {
            // cancel() ran before the reader was visible to it.
            opened.abort();
        }
        try {
            fetched.complete(opened.readFully(buffer, 0, length));
        } catch (Throwable t) {
            fetched.completeExceptionally(t);
        } finally {
            opened.close();
            reader = null;
        }
    }

    /**
     * Waits until the chunk is fetched, fetching it on this thread if no worker has started.
     *
     * @return bytes in the buffer; equals the chunk's length, since every GET checks the object's length
     * @throws FileNotFoundException if the object is gone
     * @throws InterruptedIOException if this thread is interrupted while waiting
     * @throws IOException if the GET failed for good (the worker's exception is the cause)
     */
    int await() throws IOException {
        run();
        try {
            int n = fetched.get();
            if (n != length) {
                throw new IOException(location + " ended at byte " + (start + n) + ", before the " + objectLength
                        + " bytes it had when the read began");
            }
            return n;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading ahead in " + location);
        } catch (CancellationException e) {
            throw new InterruptedIOException("read-ahead of " + location + " was cancelled");
        } catch (ExecutionException e) {
            throw rethrowable(e.getCause());
        }
    }

    /** True once the bytes are in the buffer and no worker will write it again. */
    boolean isFetched() {
        return fetched.isDone() && !fetched.isCompletedExceptionally();
    }

    /** Stops the chunk: no GET if none started, an abort of the connection if one runs. Idempotent. */
    void cancel() {
        cancelled = true;
        RangeReader running = reader;
        if (running != null) {
            running.abort();
        }
    }

    /** The failure of a fetch, as the reader's thread throws it: same kind, with the worker's stack as cause. */
    private IOException rethrowable(Throwable cause) {
        String message = "reading bytes " + start + " to " + end() + " of " + location + " ahead failed: " + cause;
        if (cause instanceof FileNotFoundException) {
            FileNotFoundException missing = new FileNotFoundException(cause.getMessage());
            missing.initCause(cause);
            return missing;
        }
        if (cause instanceof InterruptedIOException) {
            InterruptedIOException interrupted = new InterruptedIOException(message);
            interrupted.initCause(cause);
            return interrupted;
        }
        return new IOException(message, cause);
    }
}
