package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.aws.ClosedGuard;
import dev.flinks3.transfer.aws.S3Errors;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How the SDK engine's classes send a request: failures translated once ({@link S3Errors}), and reported as the
 * {@link ClosedGuard}'s after the owner closed. Immutable and thread-safe.
 */
final class SdkCalls {

    private final ClosedGuard closedGuard;

    SdkCalls(ClosedGuard closedGuard) {
        this.closedGuard = closedGuard;
    }

    /** Whether the owner of the clients began to close. */
    boolean closed() {
        return closedGuard.isClosed();
    }

    /** Sends a request and waits for its response; see {@link S3Errors#await}. */
    <T> T sendAndWait(String operation, Object location, Supplier<CompletableFuture<T>> call) throws IOException {
        return S3Errors.await(send(operation, location, call), operation, location);
    }

    <T> CompletableFuture<T> send(String operation, Object location, Supplier<CompletableFuture<T>> call) {
        return send(operation, location, call, response -> response);
    }

    /**
     * Sends a request and maps its response; a failure, also one the SDK throws before sending (request
     * validation), completes the returned future with the translated exception, and one after the owner closed
     * with the {@link ClosedGuard}'s. Cancelling the returned future aborts the request.
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
