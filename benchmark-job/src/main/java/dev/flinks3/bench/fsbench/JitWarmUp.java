package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import dev.flinks3.bench.fsbench.workloads.WorkloadContext;
import dev.flinks3.bench.fsbench.workloads.WorkloadSizes;
import dev.flinks3.bench.fsbench.workloads.WorkloadTask;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * A contender JVM's warm-up before its measured run, so that the measurement sees compiled code as a
 * long-running TaskManager does. One pass runs every workload once at {@link WorkloadSizes#jitWarmUp()}
 * sizes, a workload of one GET per operation ({@link FsWorkload#oneGetPerOperation()}) as {@link
 * WorkloadSizes#JIT_WARM_UP_READERS} tasks at once, which together send {@link
 * WorkloadSizes#JIT_WARM_UP_POSITIONAL_READS} GETs within seconds even where each GET waits tens of ms.
 * Passes repeat until the JIT is quiet: until a pass's compilation time (the JVM's {@code
 * CompilationMXBean}, summed over its compiler threads) is at most {@link #QUIET_SHARE} of the pass's wall
 * time, or after {@link #MAX_PASSES} passes or {@link #MAX_DURATION}. One pass was not enough: on {@code
 * lan}, a contender's second pass of positional reads still compiled for 1.55 s of its 1.68 s, and the JIT
 * quieted (57 ms in a 1.1 s pass) only at the seventh; its compiler threads share the contender's one core
 * with the GETs measured.
 */
final class JitWarmUp {

    /** The largest share of a pass's wall time its compilations may take for the JIT to count as quiet. */
    static final double QUIET_SHARE = 0.05;

    /** Passes at most. */
    static final int MAX_PASSES = 30;

    /** No pass starts after this long. */
    static final Duration MAX_DURATION = Duration.ofMinutes(2);

    /**
     * What {@link #untilQuiet} did.
     *
     * @param passes passes run
     * @param quiet whether the last pass was quiet (else the limits ended the warm-up)
     * @param operations the operations each workload's tasks did together in the last pass
     */
    record Passes(int passes, boolean quiet, Map<FsWorkload, Long> operations) {}

    private JitWarmUp() {}

    /**
     * Runs passes until the JIT is quiet, each pass on a fresh context, and logs each pass's wall and
     * compilation time to {@code log}.
     *
     * @param contextOfPass the context of pass 1, 2, ... (fresh paths each, at {@link WorkloadSizes#jitWarmUp()}
     *     sizes)
     * @param compilationMillis the JVM's compilation time so far, in ms ({@link #jvmCompilationMillis()}), or
     *     null where the JVM does not tell it (then one pass runs)
     */
    static Passes untilQuiet(
            List<FsWorkload> workloads,
            IntFunction<WorkloadContext> contextOfPass,
            PrintStream log,
            LongSupplier compilationMillis) {
        long start = System.nanoTime();
        for (int pass = 1; ; pass++) {
            long passStart = System.nanoTime();
            long compiledBefore = compilationMillis == null ? 0 : compilationMillis.getAsLong();
            WorkloadContext context = contextOfPass.apply(pass);
            Map<FsWorkload, Long> operations = run(workloads, context, log);
            long passMillis = Math.max(1, (System.nanoTime() - passStart) / 1_000_000);
            long compiled = compilationMillis == null ? -1 : compilationMillis.getAsLong() - compiledBefore;
            deleteQuietly(context, log);
            if (compilationMillis == null) {
                return new Passes(pass, false, operations);
            }
            boolean quiet = compiled <= QUIET_SHARE * passMillis;
            log.printf(
                    "JIT warm-up pass %d: %d ms, %d ms of compilation%s%n",
                    pass, passMillis, compiled, quiet ? " (quiet)" : "");
            if (quiet || pass >= MAX_PASSES || System.nanoTime() - start >= MAX_DURATION.toNanos()) {
                return new Passes(pass, quiet, operations);
            }
        }
    }

    /** Deletes what a pass wrote under its root, so passes do not pile up objects on the server. */
    private static void deleteQuietly(WorkloadContext context, PrintStream log) {
        try {
            context.fs().delete(context.root(), true);
        } catch (IOException | RuntimeException e) {
            log.println("JIT warm-up could not delete " + context.root() + ": " + Failures.summary(e));
        }
    }

    /** The JVM's compilation time so far in ms, or null if it does not monitor it. */
    static LongSupplier jvmCompilationMillis() {
        CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();
        if (compilation == null || !compilation.isCompilationTimeMonitoringSupported()) {
            return null;
        }
        return compilation::getTotalCompilationTime;
    }

    /**
     * One pass: runs the workloads in order on {@code context} (whose sizes should be {@link
     * WorkloadSizes#jitWarmUp()}). A failure or a wrong byte is only written to {@code log}: the measured run
     * meets and reports it again.
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
