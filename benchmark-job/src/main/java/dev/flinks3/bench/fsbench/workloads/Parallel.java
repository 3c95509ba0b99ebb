package dev.flinks3.bench.fsbench.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs tasks on a fixed number of threads and rethrows the first failure, later ones suppressed. */
final class Parallel {

    private Parallel() {}

    /**
     * Runs all tasks, at most {@code threads} at a time, each thread taking the next task when done
     * (a sliding window, not batches).
     *
     * @return the tasks' results in task order
     * @throws Exception the first task's failure, with later failures suppressed
     */
    static <T> List<T> run(int threads, String name, List<Callable<T>> tasks) throws Exception {
        if (tasks.isEmpty()) {
            return List.of();
        }
        ExecutorService executor = Executors.newFixedThreadPool(Math.min(threads, tasks.size()), r -> {
            Thread thread = new Thread(r, name);
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<T>> futures = executor.invokeAll(tasks);
            List<T> results = new ArrayList<>();
            Exception first = null;
            for (Future<T> future : futures) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    Exception cause = e.getCause() instanceof Exception ex ? ex : e;
                    if (first == null) {
                        first = cause;
                    } else if (first != cause) {
                        first.addSuppressed(cause);
                    }
                }
            }
            if (first != null) {
                throw first;
            }
            return results;
        } finally {
            executor.shutdownNow();
        }
    }

    /** The first non-empty message among verification outcomes, or empty if all are empty. */
    static String firstProblem(List<String> outcomes) {
        List<String> problems = outcomes.stream().filter(s -> !s.isEmpty()).toList();
        if (problems.isEmpty()) {
            return "";
        }
        return problems.size() == 1 ? problems.get(0) : problems.get(0) + " (and " + (problems.size() - 1) + " more)";
    }
}
