package dev.flinks3.bench.checkpoint.stats;

import java.util.List;

/**
 * One job vertex's share of a checkpoint ({@code /checkpoints/details/:id} {@code tasks} entry and its
 * {@code subtasks/:vertexid} page). Sizes in bytes, durations in milliseconds.
 *
 * @param vertexId the job vertex id
 * @param name the vertex's name (its chained operators)
 * @param stateSizeBytes the vertex's state size
 * @param checkpointedSizeBytes bytes the vertex wrote for this checkpoint
 * @param endToEndDurationMs trigger until the vertex's last acknowledgement
 * @param numSubtasks the vertex's parallelism
 * @param subtasks per-subtask figures, empty when not fetched
 */
public record VertexCheckpointStats(
        String vertexId,
        String name,
        long stateSizeBytes,
        long checkpointedSizeBytes,
        long endToEndDurationMs,
        int numSubtasks,
        List<SubtaskCheckpointStats> subtasks) {

    public VertexCheckpointStats {
        subtasks = List.copyOf(subtasks);
    }
}
