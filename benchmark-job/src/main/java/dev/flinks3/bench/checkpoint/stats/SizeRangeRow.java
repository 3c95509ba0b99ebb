package dev.flinks3.bench.checkpoint.stats;

/**
 * Completed checkpoints whose state size fell in {@code (lowerBytes, upperBytes]}.
 *
 * @param lowerBytes exclusive lower bound of the state size
 * @param upperBytes inclusive upper bound of the state size
 * @param checkpoints how many completed checkpoints fell in the range
 * @param avgDurationMs their mean end-to-end duration
 * @param throughputMbPerSecond their checkpointed bytes over their summed durations, MB/s
 */
public record SizeRangeRow(
        long lowerBytes, long upperBytes, int checkpoints, double avgDurationMs, double throughputMbPerSecond) {}
