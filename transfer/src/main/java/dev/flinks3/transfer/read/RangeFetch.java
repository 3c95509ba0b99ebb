package dev.flinks3.transfer.read;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.PartialBodyException;
import dev.flinks3.transfer.S3Location;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Bytes {@code [start, start + length)} of an object copied into a buffer (heap or direct) by ranged GETs
 * whose bodies are read straight into it ({@link ObjectClient#get} of a {@link GetRequest#into buffer target}; for a
 * caller that waits at once a {@link GetRequest#waiting() waiting} one, which may be read on the caller's thread).
 * A body that breaks mid-way is asked for again from where it broke, with at most {@value
 * RangeReader#MAX_ATTEMPTS} GETs in all. Each GET sends {@code If-Match} with the ETag the stream
 * first saw ({@link ObjectVersion}), and every answer's object length and ETag are checked against the
 * expected ones (or the first answer's), so bytes of two versions of an object are never mixed: a
 * replaced object fails with an {@link ObjectChangedException}. A missing object and any other S3 error
 * are final. Thread-safe.
 */
final class RangeFetch {

    private final ObjectClient client;
    private final S3Location location;
    private final long start;
    private final ByteBuffer dst;
    private final int length;
    private final ObjectVersion version;
    /** Whether the GETs are {@link GetRequest#waiting() waiting} requests: set by {@link #read()}. */
    private volatile boolean waiting;

    private final CompletableFuture<GetAnswer> result = new CompletableFuture<>();
    private final List<Throwable> breaks = new ArrayList<>(0);
    private volatile long objectLength;
    private volatile CompletableFuture<GetAnswer> inFlight;
    private volatile boolean cancelled;

    private RangeFetch(
            ObjectClient client,
            S3Location location,
            long start,
            ByteBuffer dst,
            long expectedObjectLength,
            ObjectVersion version) {
        this.client = client;
        this.location = location;
        this.start = start;
        this.dst = dst.duplicate();
        this.length = dst.remaining();
        this.objectLength = expectedObjectLength;
        this.version = version;
    }

    /**
     * A fetch not started yet: {@link #begin()} sends its first GET.
     *
     * @param dst receives {@code dst.remaining()} bytes from its position on; its position and limit are
     *     not moved
     * @param expectedObjectLength the object's length in bytes if known, else -1
     * @param version the version of the object the stream reads, shared by its GETs
     */
    static RangeFetch of(
            ObjectClient client,
            S3Location location,
            long start,
            ByteBuffer dst,
            long expectedObjectLength,
            ObjectVersion version) {
        return new RangeFetch(client, location, start, dst, expectedObjectLength, version);
    }

    /**
     * {@link #begin()} and {@link #await()} for a caller that waits right away: the GETs are sent with {@link
     * GetRequest#waiting() waiting} requests, which may run on this thread. Call once, instead of {@link #begin()}.
     *
     * @throws IOException as {@link #await()}
     */
    GetAnswer read() throws IOException {
        waiting = true;
        return begin().await();
    }

    /** Sends the first GET (none if already cancelled) and returns at once. Call once. */
    RangeFetch begin() {
        request(0, 1);
        return this;
    }

    /**
     * What was copied: {@code length} bytes, or fewer where the object ends first, and the object's
     * length; fails as {@link ObjectClient#get} does, or with an {@link IOException} if the
     * object's length changed between GETs, or with a {@link CancellationException} once cancelled.
     */
    CompletableFuture<GetAnswer> result() {
        return result;
    }

    /**
     * Waits for {@link #result()}.
     *
     * @throws InterruptedIOException if this thread is interrupted (the fetch is then cancelled) or
     *     the fetch was cancelled
     * @throws IOException the fetch's failure, as it is
     */
    GetAnswer await() throws IOException {
        try {
            return result.get();
        } catch (InterruptedException e) {
            cancel();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading " + location);
        } catch (CancellationException e) {
            throw new InterruptedIOException("the read of " + location + " was cancelled");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException ? (IOException) cause : new IOException(cause);
        }
    }

    /** Stops the fetch: no further GET, an abort of the one in flight. Idempotent. */
    void cancel() {
        cancelled = true;
        CompletableFuture<GetAnswer> running = inFlight;
        if (running != null) {
            running.cancel(true);
        }
        result.cancel(false);
    }

    private void request(int done, int attempt) {
        if (cancelled) {
            result.cancel(false);
            return;
        }
        CompletableFuture<GetAnswer> read;
        String ifMatch = version.ifMatch();
        try {
            ByteBuffer rest = dst.duplicate();
            rest.position(rest.position() + done);
            GetRequest get = GetRequest.into(location, start + done, rest).ifMatch(ifMatch);
            read = client.get(waiting ? get.waiting() : get);
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return;
        }
        inFlight = read;
        if (cancelled) {
            // cancel() ran before the request was visible to it.
            read.cancel(true);
        }
        read.whenComplete((answer, failure) -> {
            if (failure == null) {
                arrived(done, answer);
                return;
            }
            Throwable cause = version.explain(Futures.unwrap(failure), ifMatch);
            if (cause instanceof PartialBodyException && attempt < RangeReader.MAX_ATTEMPTS && !cancelled) {
                synchronized (breaks) {
                    breaks.add(cause);
                }
                request(done + ((PartialBodyException) cause).bytesCopied(), attempt + 1);
                return;
            }
            synchronized (breaks) {
                breaks.forEach(cause::addSuppressed);
            }
            result.completeExceptionally(cause);
        });
    }

    private void arrived(int done, GetAnswer answer) {
        long expected = objectLength;
        if (expected >= 0 && answer.objectLength() != expected) {
            result.completeExceptionally(version.lengthChanged(expected, answer.objectLength()));
            return;
        }
        try {
            version.check(answer.eTag());
        } catch (ObjectChangedException e) {
            result.completeExceptionally(e);
            return;
        }
        objectLength = answer.objectLength();
        version.learnLength(answer.objectLength());
        result.complete(GetAnswer.delivered(done + answer.bytes(), answer.objectLength(), answer.eTag()));
    }
}
