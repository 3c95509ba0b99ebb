package dev.flinks3.bench.fsbench.report;

import dev.flinks3.bench.fsbench.WorkloadResult;
import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import java.util.Map;

/** Workload results for tests of the pure parts. */
final class Results {

    private Results() {}

    /** A successful result with the given throughput and client CPU, other figures fixed. */
    static WorkloadResult ok(String contender, int round, FsWorkload workload, double throughput, double cpuSeconds) {
        return ok(contender, round, workload, throughput, cpuSeconds, 0.2, true);
    }

    /** A successful result whose timed part waited {@code waitSeconds} for the server, quiet or not. */
    static WorkloadResult ok(
            String contender,
            int round,
            FsWorkload workload,
            double throughput,
            double cpuSeconds,
            double waitSeconds,
            boolean quiet) {
        return new WorkloadResult(
                contender,
                round,
                workload,
                throughput,
                2.0,
                cpuSeconds,
                0.5,
                waitSeconds,
                quiet,
                64L << 20,
                32L << 20,
                0,
                10,
                Map.of("PutObject", 10L),
                Map.of("PutObject", 250L),
                1L << 20,
                1,
                "method",
                "");
    }

    /** A failed result. */
    static WorkloadResult failed(String contender, int round, FsWorkload workload, String why) {
        return new WorkloadResult(
                contender, round, workload, 0, 0, 0, 0, 0, true, 0, 0, 0, 0, Map.of(), Map.of(), 0, 0, "method", why);
    }
}
