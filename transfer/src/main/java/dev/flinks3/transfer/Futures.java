package dev.flinks3.transfer;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Blocking on the futures of the {@link ObjectClient} and of the engines, in one place: the one rule for
 * unwrapping a future's failure, and the blocking waits. {@link #await} gives an {@link IOException} and
 * cancels the request when the waiting thread is interrupted (Flink interrupts a task's thread to
 * cancel it; the transfer it waited for is not needed any more). {@link #awaitDespiteInterrupt} lets a
 * short request finish, for callers that cannot take an exception at that point.
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
     * Sends a short request with {@code send} and waits for its answer, as {@link #await(CompletableFuture,
     * String, Object, Function)} does, except that an interrupt does not stop it: the request goes on for up to
     * {@code grace} after the interrupt, and its real answer (value or failure) is returned. A thread whose
     * interrupt flag is set already sends the request all the same (the flag is cleared while {@code send} runs,
     * since the AWS SDK refuses to start a request on an interrupted thread), and the grace counts from the call.
     * The interrupt flag is set again before this method returns or throws.
     *
     * <p>For short requests whose answer is bounded by one attempt's timeout (HEAD, a listing page): Flink
     * cancels a task by interrupting its threads, and some callers cannot take an exception then. ForSt calls
     * the filesystem from native code (its file deletions, run when a snapshot releases its files on a thread
     * Flink interrupted); an exception thrown there stays pending in that native call and escapes it unhandled,
     * while an answer lets it complete. Transfers of data (GET bodies, parts) use {@link #await} and stop at the
     * interrupt.
     *
     * @param send sends the request; called once, on this thread
     * @param grace how long the request may go on after the interrupt; after it, the future is cancelled
     *     (which aborts the request) and an {@link InterruptedIOException} thrown
     * @param translate the exception to throw for the unwrapped failure
     * @throws IOException the request's failure as {@code translate} gives it
     * @throws InterruptedIOException if the request did not finish within {@code grace} of the interrupt
     * @throws Error a failure that is an {@link Error}, as it is
     */
    public static <T> T awaitDespiteInterrupt(
            Supplier<CompletableFuture<T>> send,
            Duration grace,
            String operation,
            Object location,
            Function<Throwable, ? extends IOException> translate)
            throws IOException {
        boolean interrupted = Thread.interrupted();
        long deadline = interrupted ? System.nanoTime() + grace.toNanos() : 0;
        try {
            CompletableFuture<T> future = send.get();
            while (true) {
                try {
                    if (!interrupted) {
                        return future.get();
                    }
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        future.cancel(true);
                        throw new InterruptedIOException(operation + " of " + location
                                + " interrupted, and no answer came within " + grace.toMillis() + " ms after");
                    }
                    return future.get(left, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    if (!interrupted) {
                        interrupted = true;
                        deadline = System.nanoTime() + grace.toNanos();
                    }
                } catch (TimeoutException e) {
                    // the deadline passed: the next round cancels
                }
            }
        } catch (ExecutionException | CancellationException e) {
            Throwable cause = unwrap(e);
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw translate.apply(cause);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
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
