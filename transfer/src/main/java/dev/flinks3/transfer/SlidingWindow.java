package dev.flinks3.transfer;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Runs one asynchronous task per item with at most {@code maxInFlight} in flight, starting the next
 * as soon as any one finishes (never waiting for the slowest of a batch). The calling thread starts
 * the tasks and blocks until all have finished.
 *
 * <p>Failure: the first failure stops new starts and cancels the tasks still running; {@link #run}
 * returns only after every started task has finished, then throws the first cause with later
 * failures suppressed (cancellations it caused itself are not added).
 */
public final class SlidingWindow {

    private SlidingWindow() {}

    /**
     * @param start starts the task for one item; its future completes with an {@link IOException}
     *     (possibly wrapped) on failure
     * @return the tasks' results in the order of {@code items}
     * @throws IOException the first task failure; {@link InterruptedIOException} if the calling
     *     thread is interrupted (running tasks are cancelled)
     */
    public static <I, T> List<T> run(List<I> items, int maxInFlight, Function<? super I, CompletableFuture<T>> start)
            throws IOException {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight " + maxInFlight + " must be at least 1");
        }
        Semaphore permits = new Semaphore(maxInFlight);
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        List<CompletableFuture<T>> started = new ArrayList<>(items.size());
        try {
            for (I item : items) {
                permits.acquire();
                if (firstFailure.get() != null) {
                    break;
                }
                CompletableFuture<T> task = startSafely(start, item);
                started.add(task);
                task.whenComplete((value, failure) -> {
                    if (failure != null) {
                        firstFailure.compareAndSet(null, Futures.unwrap(failure));
                    }
                    permits.release();
                });
            }
        } catch (InterruptedException e) {
            started.forEach(task -> task.cancel(true));
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while starting transfers");
            interrupted.initCause(e);
            throw interrupted;
        }
        if (firstFailure.get() != null) {
            started.forEach(task -> task.cancel(true));
        }
        return collect(started, firstFailure);
    }

    private static <I, T> CompletableFuture<T> startSafely(Function<? super I, CompletableFuture<T>> start, I item) {
        try {
            return start.apply(item);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static <T> List<T> collect(List<CompletableFuture<T>> started, AtomicReference<Throwable> firstFailure)
            throws IOException {
        List<T> results = new ArrayList<>(started.size());
        List<Throwable> later = new ArrayList<>();
        boolean interrupted = false;
        for (CompletableFuture<T> task : started) {
            while (true) {
                try {
                    results.add(task.get());
                    break;
                } catch (InterruptedException e) {
                    // Wait on: callers delete files the tasks may still write; the flag is restored below.
                    interrupted = true;
                    started.forEach(t -> t.cancel(true));
                } catch (CancellationException e) {
                    break;
                } catch (ExecutionException e) {
                    Throwable cause = Futures.unwrap(e);
                    if (cause != firstFailure.get() && !(cause instanceof CancellationException)) {
                        later.add(cause);
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable first = firstFailure.get();
        if (first == null) {
            if (interrupted) {
                throw new InterruptedIOException("interrupted while waiting for transfers");
            }
            return results;
        }
        IOException failure = first instanceof IOException
                ? (IOException) first
                : Futures.failed("transfer", "a parallel transfer", first);
        later.forEach(failure::addSuppressed);
        throw failure;
    }
}
