package dev.flinks3.testserver;

import java.io.InterruptedIOException;
import java.util.concurrent.locks.LockSupport;

/** Sleeping until a {@link System#nanoTime()} deadline, which parks may reach early or late. */
final class Deadlines {

    private Deadlines() {}

    /**
     * Blocks until {@code deadlineNanos} has passed on the {@link System#nanoTime()} clock.
     *
     * @throws InterruptedIOException if the thread is interrupted while waiting (the flag is kept)
     */
    static void sleepUntil(long deadlineNanos) throws InterruptedIOException {
        long remaining;
        while ((remaining = deadlineNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(remaining);
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while emulating network delay");
            }
        }
    }
}
