package dev.flinks3.transfer.aws;

import dev.flinks3.transfer.Futures;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Whether the {@link S3ClientOwner} of a client has been closed, and what a request meets after that:
 * an {@link IOException} saying that the S3 filesystem is closed and naming the request's location,
 * instead of whatever a closed SDK client or a shut-down executor throws (a rejected task, a shut-down
 * connection pool). A filesystem outlives its clients when its factory is configured again or closed
 * while code still holds it. Thread-safe.
 */
public final class ClosedGuard {

    public static final String CLOSED = "the S3 filesystem is closed: its S3 clients were closed when the filesystem"
            + " factory was configured again or closed (FileSystem.get gives a filesystem on the current clients)";

    private volatile boolean closed;

    /** From now on, requests are not sent and requests in flight that fail report the closing. */
    public void close() {
        closed = true;
    }

    /** True once the owner began to close. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Throws if closed.
     *
     * @throws IOException saying the filesystem is closed, naming {@code operation} and {@code location}
     */
    public void checkOpen(String operation, Object location) throws IOException {
        if (closed) {
            throw closedError(operation, location, null);
        }
    }

    /**
     * The error of a request whose failure came after the owner closed, else {@code failure} itself.
     *
     * @param failure the request's translated failure
     */
    public IOException afterFailure(String operation, Object location, IOException failure) {
        return closed ? closedError(operation, location, failure) : failure;
    }

    /**
     * Sends a request unless closed: a future that completes as {@code send}'s, except that it fails with
     * the closed error if closed before sending (then nothing is sent) or if the request fails after the
     * owner closed. Cancelling the returned future cancels the request's.
     *
     * @param send sends the request; its future fails with an already translated exception
     */
    public <T> CompletableFuture<T> send(String operation, Object location, Supplier<CompletableFuture<T>> send) {
        if (closed) {
            return CompletableFuture.failedFuture(closedError(operation, location, null));
        }
        CompletableFuture<T> sent = send.get();
        CompletableFuture<T> result = new CompletableFuture<>();
        sent.whenComplete((value, failure) -> {
            if (failure == null) {
                result.complete(value);
            } else if (closed) {
                result.completeExceptionally(closedError(operation, location, Futures.unwrap(failure)));
            } else {
                result.completeExceptionally(failure);
            }
        });
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) {
                sent.cancel(true);
            }
        });
        return result;
    }

    private static IOException closedError(String operation, Object location, Throwable cause) {
        return new IOException(
                operation + " of " + location + (cause == null ? " was not sent: " : " failed: ") + CLOSED, cause);
    }
}
