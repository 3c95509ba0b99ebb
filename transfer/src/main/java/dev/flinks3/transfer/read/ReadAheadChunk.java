package dev.flinks3.transfer.read;

import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;

/**
 * Bytes {@code [start, start + length)} of an object, fetched ahead of the reader into a buffer by a
 * {@link RangeFetch}: the body is copied straight into the buffer off the reader's thread, and a body that
 * breaks mid-way is asked for again from where it broke. Thread-safe.
 */
final class ReadAheadChunk {

    private final ObjectClient client;
    private final S3Location location;
    private final long start;
    private final int length;
    private final long objectLength;
    private final byte[] buffer;
    private final ObjectVersion version;
    private volatile RangeFetch fetch;
    private volatile boolean cancelled;

    /**
     * @param buffer receives the bytes from index 0; at least {@code length} long and not touched by
     *     anyone else until the chunk is fetched (a cancelled chunk's buffer may still be written)
     * @param objectLength the object's length in bytes; a GET that reports another length fails
     * @param version the version of the object the stream reads, shared by its GETs
     */
    ReadAheadChunk(
            ObjectClient client,
            S3Location location,
            long start,
            int length,
            long objectLength,
            byte[] buffer,
            ObjectVersion version) {
        if (buffer.length < length) {
            throw new IllegalArgumentException("buffer of " + buffer.length + " bytes for a chunk of " + length);
        }
        this.client = client;
        this.location = location;
        this.start = start;
        this.length = length;
        this.objectLength = objectLength;
        this.buffer = buffer;
        this.version = version;
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

    /** Sends the chunk's GET unless the chunk was cancelled; returns at once. Call once. */
    void fetch() {
        RangeFetch created =
                RangeFetch.of(client, location, start, ByteBuffer.wrap(buffer, 0, length), objectLength, version);
        fetch = created;
        if (cancelled) {
            created.cancel();
        }
        // A cancel() from here on reaches the fetch itself, which then sends no further GET.
        created.begin();
    }

    /**
     * Waits until the chunk is fetched.
     *
     * @return bytes in the buffer; equals the chunk's length, since every GET checks the object's length
     * @throws FileNotFoundException if the object is gone
     * @throws InterruptedIOException if this thread is interrupted while waiting, or the chunk was
     *     cancelled (or never fetched)
     * @throws IOException if the GET failed for good (the failure is the cause)
     */
    int await() throws IOException {
        RangeFetch running = fetch;
        if (running == null) {
            throw new InterruptedIOException("read-ahead of bytes " + start + " to " + end() + " of " + location
                    + " was cancelled before its GET");
        }
        GetAnswer read;
        try {
            read = running.await();
        } catch (FileNotFoundException e) {
            throw e;
        } catch (InterruptedIOException | ObjectChangedException e) {
            throw e;
        } catch (IOException e) {
            throw new IOException(
                    "reading bytes " + start + " to " + end() + " of " + location + " ahead failed: " + e, e);
        }
        if (read.bytes() != length) {
            throw new IOException(location + " ended at byte " + (start + read.bytes()) + ", before the " + objectLength
                    + " bytes it had when the read began");
        }
        return length;
    }

    /** True once the bytes are in the buffer and no GET will write it again. */
    boolean isFetched() {
        RangeFetch running = fetch;
        return running != null && running.result().isDone() && !running.result().isCompletedExceptionally();
    }

    /** Stops the chunk: no GET if none was sent, an abort of the one in flight. Idempotent. */
    void cancel() {
        cancelled = true;
        RangeFetch running = fetch;
        if (running != null) {
            running.cancel();
        }
    }
}
