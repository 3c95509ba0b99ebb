package dev.flinks3.multipart;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Blocking on the object client's futures with the failure contract of {@link java.io.OutputStream}:
 * the request's own {@link IOException} is thrown as it is, an interrupt becomes an
 * {@link InterruptedIOException}.
 */
public final class Await {

    private Await() {}

    /**
     * Waits for {@code future} and returns its value.
     *
     * @throws IOException the future's failure if it is one, otherwise an IOException wrapping it
     * @throws InterruptedIOException if interrupted while waiting (the interrupt flag is set again)
     */
    public static <T> T result(CompletableFuture<T> future) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while waiting for S3");
            interrupted.initCause(e);
            throw interrupted;
        } catch (ExecutionException e) {
            Throwable cause = FirstFailure.unwrap(e);
            if (cause instanceof IOException) {
                throw (IOException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new IOException(cause.getMessage(), cause);
        }
    }

    /**
     * Waits for {@code future} for cleanup: its failure, if any, is returned instead of thrown; an
     * interrupt stops the wait (the work goes on in the background) and keeps the interrupt flag.
     *
     * @return the failure, or {@code null} on success or interrupt
     */
    public static Throwable quietly(CompletableFuture<?> future) {
        try {
            future.get();
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            return FirstFailure.unwrap(e);
        }
    }
}
