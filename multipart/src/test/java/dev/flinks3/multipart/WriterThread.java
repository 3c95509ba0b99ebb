package dev.flinks3.multipart;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** A thread that runs one writing task, so a test can see whether the writer is blocked. */
final class WriterThread {

    interface Task {
        void run() throws Exception;
    }

    private final Thread thread;
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    private WriterThread(String name, Task task) {
        this.thread = new Thread(
                () -> {
                    try {
                        task.run();
                        done.complete(null);
                    } catch (Throwable t) {
                        done.completeExceptionally(t);
                    }
                },
                name);
        thread.setDaemon(true);
    }

    static WriterThread start(String name, Task task) {
        WriterThread writer = new WriterThread(name, task);
        writer.thread.start();
        return writer;
    }

    /** True while the task is running and its thread is parked (waiting for a permit, budget or S3). */
    boolean isWaiting() {
        Thread.State state = thread.getState();
        return !done.isDone() && (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING);
    }

    void interrupt() {
        thread.interrupt();
    }

    /** Waits for the task and rethrows its failure as it was thrown. */
    void join() throws Throwable {
        try {
            done.get();
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }
}
