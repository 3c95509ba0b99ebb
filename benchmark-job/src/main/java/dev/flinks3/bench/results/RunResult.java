package dev.flinks3.bench.results;

import dev.flinks3.bench.stats.CheckpointStats;
import java.util.List;

/**
 * What one run of the job did: the checkpointing phase and the restore.
 *
 * @param jobId the checkpointing job's id
 * @param totalRecords records the source emits
 * @param recordsProcessed records the accumulator processed before the job was stopped
 * @param keysCreated keys that received a value
 * @param stateDigest digest of the state when the job was stopped (hex): equal for equal parameters
 * @param checkpointingSeconds from submission until the job was cancelled
 * @param checkpoints every completed or failed checkpoint, by id
 * @param restore the restore phase, or null if the run failed before it
 */
public record RunResult(
        String jobId,
        long totalRecords,
        long recordsProcessed,
        long keysCreated,
        String stateDigest,
        double checkpointingSeconds,
        List<CheckpointStats> checkpoints,
        RestoreResult restore) {

    public RunResult {
        checkpoints = List.copyOf(checkpoints);
    }
}
