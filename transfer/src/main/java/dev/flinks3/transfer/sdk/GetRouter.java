package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.RangeStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where a {@link GetRequest} is sent: the direct GET ({@link DirectRangedGet}, signed by hand and sent on the
 * blocking HTTP client, about half the client CPU of the SDK's pipeline for a small GET), or the SDK's pipeline
 * ({@link SdkGet}) for what the direct GET does not take (no direct GETs configured, an answer other than a plain
 * 206, a key the direct GET does not sign). The one place that chooses, and the threads each target runs on:
 *
 * <ul>
 *   <li>a stream: the direct GET on the calling thread, which then reads the body from the socket itself; else the
 *       SDK's;
 *   <li>a buffer for a caller that waits ({@link GetRequest#waiting()}, a positional read): the direct GET on the
 *       calling thread, the body read into the buffer there; else the SDK's, whose HTTP client copies the body;
 *   <li>a buffer for a caller that does not wait (read-ahead), and a file (a bulk download's range): the direct GET
 *       on one of the blocking-read threads (one per GET in flight, at most one per connection); else the SDK's.
 * </ul>
 *
 * <p>A direct attempt that gets no plain answer is sent again through the SDK at once (the direct GET says why and
 * waits the throttling backoff where the server asked for it), so the result is the SDK's. Cancelling a returned
 * future aborts whichever GET is in flight. Thread-safe.
 */
final class GetRouter {

    private final SdkGet sdk;
    private final DirectRangedGet direct;
    private final ExecutorService blockingReads;
    private final SdkCalls calls;

    /**
     * @param direct the direct GET, {@code null} to send every GET through the SDK
     * @param blockingReads the threads that run direct GETs of callers that do not wait; {@code null} without
     *     {@code direct}; not owned
     */
    GetRouter(SdkGet sdk, DirectRangedGet direct, ExecutorService blockingReads, SdkCalls calls) {
        this.sdk = sdk;
        this.direct = direct;
        this.blockingReads = direct == null ? null : blockingReads;
        this.calls = calls;
    }

    /** Sends {@code request}; see {@link dev.flinks3.transfer.ObjectClient#get}. */
    CompletableFuture<GetAnswer> get(GetRequest request) {
        switch (request.target()) {
            case STREAM:
                return stream(request);
            case BUFFER:
                return intoBuffer(request);
            case FILE:
                return intoFile(request);
            default:
                throw new IllegalArgumentException("unknown target of " + request);
        }
    }

    private CompletableFuture<GetAnswer> stream(GetRequest request) {
        try {
            RangeStream body = null;
            if (direct != null && !calls.closed()) {
                body = direct.open(request.location(), request.start(), request.endExclusive(), request.ifMatch());
            }
            if (body == null) {
                body = sdk.open(request.location(), request.start(), request.endExclusive(), request.ifMatch());
            }
            return CompletableFuture.completedFuture(GetAnswer.streaming(body));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletableFuture<GetAnswer> intoBuffer(GetRequest request) {
        Supplier<CompletableFuture<GetAnswer>> throughSdk =
                () -> sdk.intoBuffer(request.location(), request.start(), request.buffer(), request.ifMatch());
        if (direct == null || calls.closed()) {
            return throughSdk.get();
        }
        if (request.isWaiting()) {
            GetAnswer read = direct.read(request.location(), request.start(), request.buffer(), request.ifMatch());
            return read != null ? CompletableFuture.completedFuture(read) : throughSdk.get();
        }
        if (blockingReads == null) {
            return throughSdk.get();
        }
        return onBlockingThread(
                abort -> direct.read(request.location(), request.start(), request.buffer(), request.ifMatch(), abort),
                throughSdk);
    }

    private CompletableFuture<GetAnswer> intoFile(GetRequest request) {
        Supplier<CompletableFuture<GetAnswer>> throughSdk = () -> sdk.intoFile(
                request.location(), request.start(), request.endExclusive(), request.file(), request.ifMatch());
        if (direct == null || blockingReads == null || calls.closed()) {
            return throughSdk.get();
        }
        return onBlockingThread(
                abort -> direct.readIntoFile(
                        request.location(),
                        request.start(),
                        request.endExclusive(),
                        request.file(),
                        request.ifMatch(),
                        abort),
                throughSdk);
    }

    /**
     * Runs {@code directly} on one of the blocking-read threads and, if it returns {@code null}, {@code throughSdk};
     * the returned future has the first answer. Cancelling it runs the abort {@code directly} set while its GET is
     * in flight, or cancels the SDK's call.
     *
     * @param directly the direct attempt: sets its argument to what aborts its GET (back to {@code null} when done)
     *     and returns the answer, or {@code null} if the SDK is to send the request
     */
    private <T> CompletableFuture<T> onBlockingThread(
            Function<AtomicReference<Runnable>, T> directly, Supplier<CompletableFuture<T>> throughSdk) {
        CompletableFuture<T> result = new CompletableFuture<>();
        AtomicReference<Runnable> abort = new AtomicReference<>();
        AtomicReference<CompletableFuture<T>> sdkCall = new AtomicReference<>();
        Runnable task = () -> {
            if (result.isDone()) {
                return;
            }
            CompletableFuture<T> sent;
            try {
                T answer = directly.apply(abort);
                if (answer != null) {
                    result.complete(answer);
                    return;
                }
                if (result.isDone()) {
                    return;
                }
                sent = throughSdk.get();
            } catch (RuntimeException | Error e) {
                // Nothing may leave the future open: its reader waits on it.
                result.completeExceptionally(e);
                return;
            }
            sdkCall.set(sent);
            sent.whenComplete((value, failure) -> {
                if (failure == null) {
                    result.complete(value);
                } else {
                    result.completeExceptionally(failure);
                }
            });
            if (result.isCancelled()) {
                sent.cancel(true);
            }
        };
        try {
            blockingReads.execute(new S3Transport.QueuedRead() {
                @Override
                public void run() {
                    task.run();
                }

                @Override
                public void abandon() {
                    result.completeExceptionally(
                            new InterruptedIOException("the S3 client closed before this GET was sent"));
                }
            });
        } catch (RejectedExecutionException e) {
            // The threads stopped: the owner is closing, and the SDK's call says so.
            return throughSdk.get();
        }
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) {
                Runnable inFlight = abort.get();
                if (inFlight != null) {
                    inFlight.run();
                }
                CompletableFuture<T> sent = sdkCall.get();
                if (sent != null) {
                    sent.cancel(true);
                }
            }
        });
        return result;
    }
}
