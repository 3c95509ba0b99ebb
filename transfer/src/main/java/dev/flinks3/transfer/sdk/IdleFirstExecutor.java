package dev.flinks3.transfer.sdk;

import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A thread pool that hands a task to an idle thread when one waits, starts a thread only when none does (up to a
 * maximum), and queues the task when the maximum is busy; a thread idle for the keep-alive time ends.
 *
 * <p>{@link ThreadPoolExecutor} with a core size equal to its maximum starts a new thread for every task until the
 * core size is reached, idle threads or not ({@link ThreadPoolExecutor}'s Javadoc, "Core and maximum pool sizes"),
 * and with a core size of 0 it queues instead of growing. So a pool whose tasks come a few at a time, but often
 * enough that no thread idles out, grows to its maximum and stays there: 96 threads for a handful of GETs in flight.
 * Here the queue accepts a task only by handing it to a thread waiting for one ({@link
 * LinkedTransferQueue#tryTransfer(Object)}); refused, the executor starts a thread, and at the maximum the task is
 * queued for the next thread that finishes. Threads alive: at most the tasks running at once, for the keep-alive
 * time after.
 */
final class IdleFirstExecutor {

    private IdleFirstExecutor() {}

    /**
     * A pool of at most {@code maxThreads}, no thread kept when idle for {@code keepAliveSeconds}. Its queue is
     * unbounded: a task is rejected ({@link RejectedExecutionException}) only once the pool is shut down.
     *
     * @param maxThreads the most threads running at once, at least 1
     * @param keepAliveSeconds how long an idle thread waits for a task before it ends, s
     * @param threads makes the threads
     */
    static ThreadPoolExecutor create(int maxThreads, long keepAliveSeconds, ThreadFactory threads) {
        HandOffQueue queue = new HandOffQueue();
        return new ThreadPoolExecutor(
                0, maxThreads, keepAliveSeconds, TimeUnit.SECONDS, queue, threads, (task, pool) -> {
                    if (pool.isShutdown()) {
                        throw new RejectedExecutionException("the executor is shut down");
                    }
                    // Every thread is busy at the maximum: the next one to finish takes the task from the queue.
                    queue.enqueue(task);
                });
    }

    /** Accepts a task from the executor only for a thread waiting for one; {@link #enqueue} queues it. */
    private static final class HandOffQueue extends LinkedTransferQueue<Runnable> {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean offer(Runnable task) {
            return tryTransfer(task);
        }

        void enqueue(Runnable task) {
            super.offer(task);
        }
    }
}
