package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.fsbench.workloads.WorkloadSizes;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a filesystem benchmark run compared and how, printed above its tables and kept in
 * {@code results.json} so a figure can be reproduced.
 *
 * @param command the command line that produced the run
 * @param profile the S3 server's network profile ({@code lan} or {@code wan})
 * @param rounds rounds run, contenders alternating their order
 * @param sizes the workload sizes
 * @param pluginJars each contender's jar (file name, size, time, SHA-256 prefix), in report order
 * @param startedAt when the run started, ISO-8601
 * @param cpuPinning which cores the S3 server and the contenders ran on, or why they were not pinned
 * @param serverStorage where the S3 server kept its objects (tmpfs or disk) and why
 * @param serverWarmUp how the S3 server's warm-up went (passes, its JIT compilers' share of its CPU), empty without
 *     one
 */
public record RunDescription(
        String command,
        String profile,
        int rounds,
        WorkloadSizes sizes,
        Map<String, String> pluginJars,
        String startedAt,
        String cpuPinning,
        String serverStorage,
        String serverWarmUp) {

    public RunDescription {
        pluginJars = Collections.unmodifiableMap(new LinkedHashMap<>(pluginJars));
    }

    /** This description with {@code serverWarmUp} said. */
    public RunDescription withServerWarmUp(String serverWarmUp) {
        return new RunDescription(
                command, profile, rounds, sizes, pluginJars, startedAt, cpuPinning, serverStorage, serverWarmUp);
    }
}
