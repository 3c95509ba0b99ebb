package dev.flinks3.bench.checkpoint.stats;

/**
 * One subtask's acknowledgement of a checkpoint ({@code subtasks} entry of
 * {@code /checkpoints/details/:id/subtasks/:vertexid}). Sizes in bytes, durations in milliseconds.
 *
 * @param index the subtask index
 * @param stateSizeBytes the subtask's state size
 * @param checkpointedSizeBytes bytes the subtask wrote
 * @param endToEndDurationMs trigger until this subtask's acknowledgement
 * @param syncDurationMs the synchronous part (snapshot of RocksDB)
 * @param asyncDurationMs the asynchronous part (upload to the checkpoint storage)
 * @param alignmentDurationMs barrier alignment
 * @param startDelayMs trigger until the barrier reached the subtask
 */
public record SubtaskCheckpointStats(
        int index,
        long stateSizeBytes,
        long checkpointedSizeBytes,
        long endToEndDurationMs,
        long syncDurationMs,
        long asyncDurationMs,
        long alignmentDurationMs,
        long startDelayMs) {}
