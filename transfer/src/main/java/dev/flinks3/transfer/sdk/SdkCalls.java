package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.aws.ClosedGuard;
import dev.flinks3.transfer.aws.S3Errors;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How the SDK engine's classes send a request: failures translated once ({@link S3Errors}), and reported as the
 * {@link ClosedGuard}'s after the owner closed. Immutable and thread-safe.
 */
final class SdkCalls {

    private final ClosedGuard closedGuard;
    private final Duration interruptGrace;

    /**
     * @param interruptGrace how long a short request may go on after its caller was interrupted ({@link
     *     #sendAndFinish}): one attempt's timeout
     */
    SdkCalls(ClosedGuard closedGuard, Duration interruptGrace) {
        this.closedGuard = closedGuard;
        this.interruptGrace = interruptGrace;
    }

    /** Whether the owner of the clients began to close. */
    boolean closed() {
        return closedGuard.isClosed();
    }

    /** Sends a request and waits for its response; see {@link S3Errors#await}. */
    <T> T sendAndWait(String operation, Object location, Supplier<CompletableFuture<T>> call) throws IOException {
        return S3Errors.await(send(operation, location, call), operation, location);
    }

    /**
     * Sends a short request (HEAD, a listing page, a DeleteObject) and waits for its answer, which an
     * interrupt of the calling thread does not cut short: the request goes on for up to one attempt's
     * timeout after it, and the interrupt flag is set again afterwards; see {@link
     * S3Errors#awaitDespiteInterrupt}.
     */
    <T> T sendAndFinish(String operation, Object location, Supplier<CompletableFuture<T>> call) throws IOException {
        return S3Errors.awaitDespiteInterrupt(
                () -> send(operation, location, call), interruptGrace, operation, location);
    }

    <T> CompletableFuture<T> send(String operation, Object location, Supplier<CompletableFuture<T>> call) {
        return send(operation, location, call, response -> response);
    }

    /**
     * Sends a request and maps its response; a failure, also one the SDK throws before sending (request
     * validation), completes the returned future with the translated exception, and one after the owner closed
     * with the {@link ClosedGuard}'s. Cancelling the returned future aborts the request. On a thread whose
     * interrupt flag is set the SDK refuses to send ({@code SdkInterruptedException}), which is what a transfer
     * started by a cancelled task should get; cleanup uses {@link #sendDespiteInterrupt}.
     */
    <S, T> CompletableFuture<T> send(
            String operation, Object location, Supplier<CompletableFuture<S>> call, Function<? super S, T> response) {
        return closedGuard.send(operation, location, () -> {
            try {
                return S3Errors.translating(call.get(), response, operation, location);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(S3Errors.translate(operation, location, e));
            }
        });
    }

    /**
     * As {@link #send(String, Object, Supplier, Function)}, but sent whatever the calling thread's interrupt
     * flag says: for cleanup that must reach the server (AbortMultipartUpload). Flink closes a cancelled task's
     * streams on the thread it interrupted; the SDK refused the abort sent from there, and the upload stayed
     * open at the server (one per TaskManager stop in the 2-hour soak of 2026-12-07). The flag is cleared while
     * the SDK takes the request and set again before this method returns; whoever waits for the future still
     * sees the interrupt.
     */
    <S, T> CompletableFuture<T> sendDespiteInterrupt(
            String operation, Object location, Supplier<CompletableFuture<S>> call, Function<? super S, T> response) {
        return despiteInterrupt(() -> send(operation, location, call, response));
    }

    /**
     * Runs {@code send} (a request handed to the SDK) with the calling thread's interrupt flag cleared, and sets
     * the flag again before returning if it was set: the SDK refuses to take a request on an interrupted thread.
     */
    static <T> T despiteInterrupt(Supplier<T> send) {
        boolean interrupted = Thread.interrupted();
        try {
            return send.get();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Sends a request on a blocking client and returns its answer; a failure is translated (and, after the owner
     * closed, reported as the {@link ClosedGuard}'s).
     */
    <T> T sendBlocking(String operation, Object location, Supplier<T> call) throws IOException {
        closedGuard.checkOpen(operation, location);
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw closedGuard.afterFailure(operation, location, S3Errors.translate(operation, location, e));
        }
    }
}
