package dev.flinks3.transfer.read;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import java.io.Closeable;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads bytes {@code [start, end)} of one object through a ranged GET, opened at the first read.
 *
 * <p>A body that breaks mid-way (connection reset, socket timeout, a body that ends before its
 * {@code Content-Length}) is re-requested from the current position with a new ranged GET, so the
 * caller sees exactly the object's bytes; at most {@value #MAX_ATTEMPTS} GETs are made per reader.
 * {@link FileNotFoundException} and interrupts are never retried. Every GET after the stream's first
 * sends {@code If-Match} with the ETag the stream first saw ({@link ObjectVersion}) and checks that the
 * object's length and ETag are still the ones first seen, so bytes of two versions of an object are
 * never mixed: a replaced object fails with an {@link ObjectChangedException}.
 *
 * <p>Not thread-safe, except {@link #abort()}, which another thread may call to drop the connection.
 */
final class RangeReader implements Closeable {

    /** GETs one reader may make: the first one and two re-requests after broken bodies. */
    static final int MAX_ATTEMPTS = 3;

    /**
     * Unread bytes up to which {@link #close()} reads the rest of the body instead of aborting. Reading
     * 64 KiB takes about 1 ms at 50 MB/s and hands the connection back to the pool; aborting drops it,
     * and the next GET then pays a new TCP and TLS handshake (two to three round trips).
     */
    static final long DRAIN_LIMIT_BYTES = 64 * 1024;

    /** Size of the heap array that discards skipped or drained bytes. */
    static final int STAGING_BYTES = 64 * 1024;

    private final ObjectClient client;
    private final S3Location location;
    private final long start;
    private final long end;
    private final ObjectVersion version;
    private long position;
    private long objectLength;
    private volatile RangeStream body;
    private volatile boolean aborted;
    private boolean ended;
    private int attempts;
    /** Nanoseconds spent waiting in the body's reads: the connection's time, without the reader's own. */
    private long bodyWaitNanos;

    private final List<IOException> failures = new ArrayList<>(0);

    /**
     * @param start first byte to read
     * @param end byte after the last one to read; may lie beyond the object's end
     * @param expectedObjectLength the object's length in bytes if already known, else -1
     * @param version the version of the object the stream reads, shared by its GETs
     */
    RangeReader(
            ObjectClient client,
            S3Location location,
            long start,
            long end,
            long expectedObjectLength,
            ObjectVersion version) {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad range [" + start + ", " + end + ") of " + location);
        }
        this.client = client;
        this.location = location;
        this.start = start;
        this.position = start;
        this.end = end;
        this.objectLength = expectedObjectLength;
        this.version = version;
    }

    /** The first byte this reader was asked for. */
    long start() {
        return start;
    }

    /** The next byte this reader returns. */
    long position() {
        return position;
    }

    /**
     * Nanoseconds the reader waited inside the body's reads so far: the time the connection took to deliver what
     * was read, without the GET's first-byte wait and without the reader's own time between reads (a reader slower
     * than its connection finds the bytes already there and waits almost nothing).
     */
    long bodyWaitNanos() {
        return bodyWaitNanos;
    }

    /** The byte after the last one this reader was asked for. */
    long end() {
        return end;
    }

    /** The object's length in bytes, -1 until a GET has answered (or if none was given). */
    long objectLength() {
        return objectLength;
    }

    /** True if no byte remains: the range or the object has ended. */
    boolean isExhausted() {
        return ended || position >= limit();
    }

    /**
     * Reads up to {@code len} bytes, blocking until at least one is available.
     *
     * @return bytes read, or -1 at the end of the range or of the object
     * @throws FileNotFoundException if the object does not exist
     * @throws IOException if the body broke {@value #MAX_ATTEMPTS} times (the first cause, later ones
     *     suppressed), or a GET failed for good
     */
    int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (true) {
            if (isExhausted()) {
                releaseBody();
                return -1;
            }
            if (body == null) {
                if (!open()) {
                    ended = true;
                    return -1;
                }
                // The answer told the object's length: the range may turn out empty.
                continue;
            }
            int n;
            long waitFrom = System.nanoTime();
            try {
                n = body.read(b, off, (int) Math.min(len, limit() - position));
            } catch (IOException e) {
                retryAfter(e);
                continue;
            } finally {
                bodyWaitNanos += System.nanoTime() - waitFrom;
            }
            if (n < 0) {
                if (position < limit()) {
                    retryAfter(new EOFException("body of ranged GET of " + location + " ended at byte " + position
                            + ", before byte " + limit()));
                    continue;
                }
                ended = true;
                releaseBody();
                return -1;
            }
            position += n;
            return n;
        }
    }

    /**
     * Reads and drops up to {@code n} bytes on the open connection (with the same retries as reads).
     *
     * @return bytes skipped, less than {@code n} only at the end
     */
    long discard(long n) throws IOException {
        byte[] scratch = new byte[(int) Math.min(n, STAGING_BYTES)];
        long done = 0;
        while (done < n) {
            int r = read(scratch, 0, (int) Math.min(scratch.length, n - done));
            if (r < 0) {
                break;
            }
            done += r;
        }
        return done;
    }

    /** Drops the connection at once; later reads fail. Safe to call from any thread, idempotent. */
    void abort() {
        aborted = true;
        RangeStream open = body;
        if (open != null) {
            open.abort();
        }
    }

    /**
     * Releases the connection: reads a remainder of at most {@value #DRAIN_LIMIT_BYTES} bytes so the
     * connection can be reused, aborts it if more remains. Never throws for a failed drain.
     */
    @Override
    public void close() {
        RangeStream open = body;
        if (open == null) {
            return;
        }
        body = null;
        long remaining = limit() - position;
        if (remaining > DRAIN_LIMIT_BYTES || aborted) {
            open.abort();
            return;
        }
        try {
            byte[] scratch = new byte[(int) Math.min(Math.max(remaining, 1), STAGING_BYTES)];
            while (open.read(scratch, 0, scratch.length) >= 0) {
                // The remainder is dropped; reading it lets the HTTP client reuse the connection.
            }
            open.close();
        } catch (IOException e) {
            // A connection that breaks while draining is simply not reused.
            open.abort();
        }
    }

    /** Where this range really ends: at {@code end}, or earlier at the object's end once known. */
    private long limit() {
        return objectLength < 0 ? end : Math.min(end, objectLength);
    }

    /** Sends the ranged GET from the current position; false if the position is at or past the object's end. */
    private boolean open() throws IOException {
        if (aborted) {
            throw new InterruptedIOException("read of " + location + " was aborted");
        }
        attempts++;
        RangeStream opened;
        String ifMatch = version.ifMatch();
        try {
            opened = Futures.await(
                    client.get(GetRequest.stream(location, position, end).ifMatch(ifMatch)), "GetObject", location)
                    .stream();
        } catch (EOFException e) {
            return false;
        } catch (S3RequestException e) {
            // 416 Requested Range Not Satisfiable: the range starts at or past the end, as for any
            // ranged GET of an empty object on servers that do not answer it with the whole (empty) body.
            if (e.statusCode() == 416) {
                return false;
            }
            throw withEarlierFailures((IOException) version.explain(e, ifMatch));
        } catch (IOException e) {
            throw withEarlierFailures(e);
        }
        long length = opened.objectLength();
        if (objectLength >= 0 && length >= 0 && length != objectLength) {
            opened.abort();
            throw withEarlierFailures(version.lengthChanged(objectLength, length));
        }
        try {
            version.check(opened.eTag());
        } catch (ObjectChangedException e) {
            opened.abort();
            throw withEarlierFailures(e);
        }
        if (length >= 0) {
            objectLength = length;
            version.learnLength(length);
        }
        body = opened;
        if (aborted) {
            // abort() ran between the GET and the assignment above and could not see the body.
            body = null;
            opened.abort();
            throw new InterruptedIOException("read of " + location + " was aborted");
        }
        return true;
    }

    /** Drops the broken body; rethrows unless another GET from the current position may be made. */
    private void retryAfter(IOException failure) throws IOException {
        RangeStream broken = body;
        body = null;
        if (broken != null) {
            broken.abort();
        }
        if (failure instanceof FileNotFoundException
                || aborted
                || Thread.currentThread().isInterrupted()) {
            throw failure;
        }
        failures.add(failure);
        if (attempts >= MAX_ATTEMPTS) {
            throw withEarlierFailures(new IOException(
                    "reading " + location + " failed at byte " + position + " after " + attempts + " ranged GETs"));
        }
    }

    /**
     * The failure to throw: the first broken body is the cause (later ones suppressed) when {@code
     * last} is our own summary; otherwise {@code last} (a GET that failed for good, kept with its type
     * so a missing object stays a {@link FileNotFoundException}) with the broken bodies suppressed.
     */
    private IOException withEarlierFailures(IOException last) {
        if (failures.isEmpty()) {
            return last;
        }
        int from = 0;
        if (last.getCause() == null && last.getClass() == IOException.class) {
            last.initCause(failures.get(0));
            from = 1;
        }
        for (int i = from; i < failures.size(); i++) {
            last.addSuppressed(failures.get(i));
        }
        return last;
    }

    private void releaseBody() throws IOException {
        RangeStream done = body;
        body = null;
        if (done != null) {
            done.close();
        }
    }
}
