package dev.flinks3.bench.checkpoint.stats;

import java.util.List;

/**
 * One checkpoint as Flink's REST API reports it ({@code /jobs/:jobid/checkpoints} history entry,
 * completed with {@code /checkpoints/details/:id} per vertex and per subtask). Sizes in bytes, times
 * in epoch milliseconds of the JobManager's clock, durations in milliseconds.
 *
 * @param id checkpoint id
 * @param status {@code COMPLETED} or {@code FAILED}
 * @param type Flink's checkpoint type, e.g. {@code CHECKPOINT} or {@code UNALIGNED_CHECKPOINT}
 * @param triggerTimestamp when the JobManager triggered it
 * @param latestAckTimestamp when the last subtask acknowledged it
 * @param stateSizeBytes the full size of the state the checkpoint references
 * @param checkpointedSizeBytes the bytes this checkpoint wrote (less than the state size for incremental ones)
 * @param endToEndDurationMs trigger until the last acknowledgement
 * @param numSubtasks subtasks taking part
 * @param numAcknowledgedSubtasks subtasks that acknowledged
 * @param externalPath where the completed checkpoint's metadata lives, empty if none
 * @param failureMessage why it failed, empty if it did not
 * @param vertices per-vertex figures, empty when the details were not fetched
 */
public record CheckpointStats(
        long id,
        String status,
        String type,
        long triggerTimestamp,
        long latestAckTimestamp,
        long stateSizeBytes,
        long checkpointedSizeBytes,
        long endToEndDurationMs,
        int numSubtasks,
        int numAcknowledgedSubtasks,
        String externalPath,
        String failureMessage,
        List<VertexCheckpointStats> vertices) {

    /** Status of a checkpoint that completed. */
    public static final String COMPLETED = "COMPLETED";

    /** Status of a checkpoint that failed. */
    public static final String FAILED = "FAILED";

    /** Status of a checkpoint still running. */
    public static final String IN_PROGRESS = "IN_PROGRESS";

    public CheckpointStats {
        vertices = List.copyOf(vertices);
    }

    /** Whether the checkpoint completed. */
    public boolean completed() {
        return COMPLETED.equals(status);
    }

    /** Whether the checkpoint is over (completed or failed). */
    public boolean terminal() {
        return !IN_PROGRESS.equals(status);
    }

    /**
     * Checkpointed bytes per second of end-to-end duration, in MB/s (10^6 bytes per second); 0 when the
     * duration is 0.
     */
    public double throughputMbPerSecond() {
        return Units.megabytesPerSecond(checkpointedSizeBytes, endToEndDurationMs);
    }

    /** The same checkpoint with per-vertex details. */
    public CheckpointStats withVertices(List<VertexCheckpointStats> details) {
        return new CheckpointStats(
                id,
                status,
                type,
                triggerTimestamp,
                latestAckTimestamp,
                stateSizeBytes,
                checkpointedSizeBytes,
                endToEndDurationMs,
                numSubtasks,
                numAcknowledgedSubtasks,
                externalPath,
                failureMessage,
                details);
    }
}
