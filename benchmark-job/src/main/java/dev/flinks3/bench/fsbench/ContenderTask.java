package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import dev.flinks3.bench.fsbench.workloads.WorkloadSizes;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one contender JVM is asked to do, handed to {@link ContenderMain} as a JSON file.
 *
 * @param contender the contender's name
 * @param round the round, 1-based, or 0 for the warm-up
 * @param bucket the bucket this run writes to, empty at start
 * @param flinkConfiguration the Flink configuration the filesystem is initialized with
 * @param sizes the workload sizes
 * @param workloads the workloads to run, in this order
 * @param localDir a local directory the run may use (restore downloads)
 * @param jitWarmUp whether to warm up first ({@link JitWarmUp}: the workloads at {@link WorkloadSizes#jitWarmUp()}
 *     sizes, untimed and uncounted, in passes until the JIT is quiet; and each read workload ({@link
 *     FsWorkload#readsOnly()}) once untimed on its measured objects), so the measured run sees compiled code as
 *     a long-running TaskManager does
 * @param cpuProfileDir where a {@link CpuRecording} of each workload's timed part is written ({@link
 *     #cpuProfileFile}), empty for none
 * @param cpuSamples with a {@code cpuProfileDir}, whether JFR execution samples are recorded too, or only each
 *     thread group's CPU
 */
public record ContenderTask(
        String contender,
        int round,
        String bucket,
        Map<String, String> flinkConfiguration,
        WorkloadSizes sizes,
        List<FsWorkload> workloads,
        String localDir,
        boolean jitWarmUp,
        String cpuProfileDir,
        boolean cpuSamples) {

    public ContenderTask {
        flinkConfiguration = Map.copyOf(flinkConfiguration);
        workloads = List.copyOf(workloads);
    }

    /** The recording of {@code workload}'s timed part in {@code dir}: {@code <workload>-<contender>-r<round>.jfr}. */
    static Path cpuProfileFile(Path dir, FsWorkload workload, String contender, int round) {
        return dir.resolve(workload.name().toLowerCase(Locale.ROOT) + "-" + contender + "-r" + round + ".jfr");
    }
}
