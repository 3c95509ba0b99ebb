package dev.flinks3.transfer;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * Blocking on the futures of the {@link ObjectClient} and of the engines, in one place: the one rule for
 * unwrapping a future's failure, and the one blocking wait, which gives an {@link IOException} and
 * cancels the request when the waiting thread is interrupted (Flink interrupts a task's thread to
 * cancel it; the request it waited for is not needed any more).
 */
public final class Futures {

    private Futures() {}

    /**
     * The failure inside {@link CompletionException} and {@link ExecutionException} wrappers, as many
     * as there are; {@code failure} itself if it is not one or has no cause.
     */
    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /**
     * Waits for {@code future} and returns its value. A failure that is an {@link IOException} (as the
     * {@link ObjectClient}'s futures fail) is thrown as it is.
     *
     * @param operation what the future does, e.g. {@code UploadPart}, for the messages
     * @param location what it is for, usually an {@link S3Location}, for the messages
     * @throws IOException the future's failure, or one wrapping a failure of another kind (a
     *     cancellation as an {@link InterruptedIOException})
     * @throws InterruptedIOException if the thread is interrupted while waiting: the future is
     *     cancelled (which aborts the request) and the interrupt flag is set again
     * @throws Error a failure that is an {@link Error}, as it is
     */
    public static <T> T await(CompletableFuture<T> future, String operation, Object location) throws IOException {
        return await(future, operation, location, cause -> failed(operation, location, cause));
    }

    /**
     * As {@link #await(CompletableFuture, String, Object)}, with the failures other than {@link Error}s
     * given to {@code translate}: an engine's own translation of its library's exceptions.
     *
     * @param translate the exception to throw for the unwrapped failure
     */
    public static <T> T await(
            CompletableFuture<T> future,
            String operation,
            Object location,
            Function<Throwable, ? extends IOException> translate)
            throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted =
                    new InterruptedIOException(operation + " of " + location + " interrupted");
            interrupted.initCause(e);
            throw interrupted;
        } catch (ExecutionException | CancellationException e) {
            Throwable cause = unwrap(e);
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw translate.apply(cause);
        }
    }

    /**
     * Waits for {@code future} for cleanup: its failure, if any, is returned instead of thrown; an
     * interrupt stops the wait (the work goes on in the background) and keeps the interrupt flag.
     *
     * @return the unwrapped failure, or {@code null} on success or interrupt
     */
    public static Throwable quietly(CompletableFuture<?> future) {
        try {
            future.get();
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException | CancellationException e) {
            return unwrap(e);
        }
    }

    /**
     * The {@link IOException} for a failure that is not one already: a cancellation becomes an
     * {@link InterruptedIOException}, anything else an IOException naming the operation and location.
     */
    public static IOException failed(String operation, Object location, Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof IOException) {
            return (IOException) cause;
        }
        if (cause instanceof CancellationException) {
            InterruptedIOException cancelled =
                    new InterruptedIOException(operation + " of " + location + " was cancelled");
            cancelled.initCause(cause);
            return cancelled;
        }
        return new IOException(operation + " of " + location + " failed: " + cause, cause);
    }
}
