package dev.flinks3.bench.checkpoint.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * The report's figures for a run's checkpoints: counts, maximum state, the distributions of duration,
 * state size and per-checkpoint throughput, the overall throughput and the throughput by state-size
 * range. Throughput overall and per range is checkpointed bytes divided by the summed end-to-end
 * durations of the completed checkpoints (a time-weighted mean), in MB/s (10^6 bytes per second).
 *
 * @param completed completed checkpoints
 * @param failed failed checkpoints
 * @param maxStateBytes largest state size of a completed checkpoint
 * @param durationMs end-to-end durations of completed checkpoints
 * @param stateSizeBytes state sizes of completed checkpoints
 * @param checkpointedSizeBytes checkpointed sizes of completed checkpoints
 * @param throughputMbPerSecond per-checkpoint throughputs of completed checkpoints
 * @param avgThroughputMbPerSecond all checkpointed bytes over all durations
 * @param bySizeRange {@link #RANGES} equal ranges of state size up to the maximum
 */
public record CheckpointSummary(
        int completed,
        int failed,
        long maxStateBytes,
        Distribution durationMs,
        Distribution stateSizeBytes,
        Distribution checkpointedSizeBytes,
        Distribution throughputMbPerSecond,
        double avgThroughputMbPerSecond,
        List<SizeRangeRow> bySizeRange) {

    /** Number of state-size ranges in {@link #bySizeRange}. */
    public static final int RANGES = 4;

    public CheckpointSummary {
        bySizeRange = List.copyOf(bySizeRange);
    }

    /** Summarises checkpoints (in progress ones are ignored). */
    public static CheckpointSummary of(List<CheckpointStats> checkpoints) {
        List<CheckpointStats> done =
                checkpoints.stream().filter(CheckpointStats::completed).toList();
        int failed = (int) checkpoints.stream()
                .filter(c -> CheckpointStats.FAILED.equals(c.status()))
                .count();
        long maxState =
                done.stream().mapToLong(CheckpointStats::stateSizeBytes).max().orElse(0);
        return new CheckpointSummary(
                done.size(),
                failed,
                maxState,
                Distribution.of(done.stream()
                        .mapToDouble(CheckpointStats::endToEndDurationMs)
                        .toArray()),
                Distribution.of(done.stream()
                        .mapToDouble(CheckpointStats::stateSizeBytes)
                        .toArray()),
                Distribution.of(done.stream()
                        .mapToDouble(CheckpointStats::checkpointedSizeBytes)
                        .toArray()),
                Distribution.of(done.stream()
                        .mapToDouble(CheckpointStats::throughputMbPerSecond)
                        .toArray()),
                throughput(done),
                bySizeRange(done, maxState));
    }

    private static List<SizeRangeRow> bySizeRange(List<CheckpointStats> done, long maxState) {
        List<SizeRangeRow> rows = new ArrayList<>();
        if (maxState == 0) {
            return rows;
        }
        for (int i = 0; i < RANGES; i++) {
            long lower = i == 0 ? -1 : maxState * i / RANGES;
            long upper = maxState * (i + 1) / RANGES;
            List<CheckpointStats> in = done.stream()
                    .filter(c -> c.stateSizeBytes() > lower && c.stateSizeBytes() <= upper)
                    .toList();
            double avgDuration = in.stream()
                    .mapToLong(CheckpointStats::endToEndDurationMs)
                    .average()
                    .orElse(0);
            rows.add(new SizeRangeRow(Math.max(0, lower), upper, in.size(), avgDuration, throughput(in)));
        }
        return rows;
    }

    private static double throughput(List<CheckpointStats> checkpoints) {
        long bytes = checkpoints.stream()
                .mapToLong(CheckpointStats::checkpointedSizeBytes)
                .sum();
        long millis = checkpoints.stream()
                .mapToLong(CheckpointStats::endToEndDurationMs)
                .sum();
        return Units.megabytesPerSecond(bytes, millis);
    }
}
