package dev.flinks3.multipart;

import dev.flinks3.transfer.Futures;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The failure state of one upload: the first cause wins, later ones are added to it as suppressed
 * (each exception once, however many parts report it). Thread-safe.
 */
final class FirstFailure {

    private Throwable first;

    /** Records {@code error} (unwrapped from {@link CompletionException}/{@link ExecutionException}). */
    synchronized void record(Throwable error) {
        Throwable cause = Futures.unwrap(error);
        if (first == null) {
            first = cause;
            return;
        }
        if (isCausedBy(cause, first)) {
            return; // a wrapper of the first cause, e.g. thrown by a write after the failure
        }
        for (Throwable known : first.getSuppressed()) {
            if (known == cause) {
                return;
            }
        }
        first.addSuppressed(cause);
    }

    synchronized boolean isFailed() {
        return first != null;
    }

    /** The first cause, or {@code null}. */
    synchronized Throwable first() {
        return first;
    }

    /**
     * Throws the first cause itself if it is an {@link IOException} (so a {@code FileAlreadyExistsException}
     * stays one), otherwise an {@link IOException} wrapping it; returns normally if nothing failed.
     */
    void throwFirst() throws IOException {
        Throwable cause = first();
        if (cause == null) {
            return;
        }
        if (cause instanceof IOException) {
            throw (IOException) cause;
        }
        if (cause instanceof Error) {
            throw (Error) cause;
        }
        throw new IOException(cause.getMessage(), cause);
    }

    /** Throws an {@link IOException} saying the upload to {@code target} failed earlier, with the first cause. */
    void throwIfFailed(Object target) throws IOException {
        Throwable cause = first();
        if (cause != null) {
            throw new IOException("Upload to " + target + " has failed: " + cause.getMessage(), cause);
        }
    }

    private static boolean isCausedBy(Throwable error, Throwable cause) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t == cause) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
