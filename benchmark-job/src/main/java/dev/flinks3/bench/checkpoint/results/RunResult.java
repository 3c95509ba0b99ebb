package dev.flinks3.bench.checkpoint.results;

import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import java.util.List;

/**
 * What one run of the job did: the checkpointing phase and the restore.
 *
 * @param jobId the checkpointing job's id
 * @param startTimestamp when the checkpointing job started, epoch milliseconds of the JobManager's clock (its
 *     {@code start-time} in {@code /jobs/:jobid}, the clock of the checkpoints' trigger timestamps); 0 if not
 *     recorded (results written before it was), and reports then count time from the first checkpoint's trigger
 * @param totalRecords records the source emits
 * @param recordsProcessed records the accumulator processed before the job was stopped
 * @param keysCreated keys that received a value
 * @param stateDigest digest of the state when the job was stopped (hex): equal for equal parameters
 * @param checkpointingSeconds from submission until the job was cancelled
 * @param processingSeconds from submission until every record was processed (within the runner's half-second
 *     poll; 0 if unknown): {@code recordsProcessed / processingSeconds} is the job's records/s, the rate its
 *     state backend kept up with when the source's rate is above it
 * @param checkpoints every completed or failed checkpoint, by id
 * @param restore the restore phase, or null if the run failed before it
 */
public record RunResult(
        String jobId,
        long startTimestamp,
        long totalRecords,
        long recordsProcessed,
        long keysCreated,
        String stateDigest,
        double checkpointingSeconds,
        double processingSeconds,
        List<CheckpointStats> checkpoints,
        RestoreResult restore) {

    public RunResult {
        checkpoints = List.copyOf(checkpoints);
    }
}
