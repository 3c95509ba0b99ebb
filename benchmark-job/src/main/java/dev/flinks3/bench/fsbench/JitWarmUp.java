package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import dev.flinks3.bench.fsbench.workloads.WorkloadContext;
import dev.flinks3.bench.fsbench.workloads.WorkloadSizes;
import dev.flinks3.bench.fsbench.workloads.WorkloadTask;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A contender JVM's warm-up before its measured run, so that the measurement sees compiled code as a
 * long-running TaskManager does: every workload once at {@link WorkloadSizes#jitWarmUp()} sizes, and a
 * workload of one GET per operation ({@link FsWorkload#oneGetPerOperation()}) as {@link
 * WorkloadSizes#JIT_WARM_UP_READERS} tasks at once, which together send {@link
 * WorkloadSizes#JIT_WARM_UP_POSITIONAL_READS} GETs within seconds even where each GET waits tens of ms.
 */
final class JitWarmUp {

    private JitWarmUp() {}

    /**
     * Runs the workloads in order on {@code context} (whose sizes should be {@link WorkloadSizes#jitWarmUp()}).
     * A failure or a wrong byte is only written to {@code log}: the measured run meets and reports it again.
     *
     * @return the operations each workload's tasks did together (none for a workload that failed)
     */
    static Map<FsWorkload, Long> run(List<FsWorkload> workloads, WorkloadContext context, PrintStream log) {
        Map<FsWorkload, Long> operations = new EnumMap<>(FsWorkload.class);
        for (FsWorkload workload : workloads) {
            try {
                int tasks = workload.oneGetPerOperation() ? WorkloadSizes.JIT_WARM_UP_READERS : 1;
                List<WorkloadTask> works = new ArrayList<>();
                for (int i = 0; i < tasks; i++) {
                    WorkloadTask work = WorkloadTask.of(workload, context);
                    // one after another: the first writes what the workload reads, the others find it there
                    work.prepare();
                    works.add(work);
                }
                operations.put(workload, runAtOnce(works));
                for (WorkloadTask work : works) {
                    String problem = work.verify();
                    if (!problem.isEmpty()) {
                        log.println("JIT warm-up of " + workload + " read wrong bytes: " + problem);
                    }
                }
            } catch (Exception e) {
                log.println("JIT warm-up of " + workload + " failed: " + Failures.summary(e));
            }
        }
        return operations;
    }

    /**
     * Runs each task's timed part on a thread of its own, all at once, and waits for all.
     *
     * @return the operations of all tasks together
     * @throws Exception the first task's failure, in task order
     */
    private static long runAtOnce(List<WorkloadTask> works) throws Exception {
        if (works.size() == 1) {
            return works.get(0).run().operations();
        }
        ExecutorService pool = Executors.newFixedThreadPool(works.size());
        try {
            List<Callable<WorkloadTask.Outcome>> runs = new ArrayList<>();
            for (WorkloadTask work : works) {
                runs.add(work::run);
            }
            long operations = 0;
            for (Future<WorkloadTask.Outcome> run : pool.invokeAll(runs)) {
                try {
                    operations += run.get().operations();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
                }
            }
            return operations;
        } finally {
            pool.shutdownNow();
        }
    }
}
