package dev.flinks3.bench.checkpoint.run;

import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import dev.flinks3.bench.checkpoint.results.RunResult;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import java.util.List;

/**
 * One run of the benchmark against one Flink cluster: the checkpointing phase, then the restore
 * from its last checkpoint. Works the same on a MiniCluster and on a real cluster; only the
 * {@link JobLauncher} and the REST address differ.
 */
public final class BenchmarkRun {

    private final JobLauncher launcher;
    private final FlinkRestClient rest;
    private final RunEvents events;

    public BenchmarkRun(JobLauncher launcher, FlinkRestClient rest, RunEvents events) {
        this.launcher = launcher;
        this.rest = rest;
        this.events = events;
    }

    /**
     * Runs both phases.
     *
     * @param restoreParallelism the restored job's parallelism
     * @return the figures of both phases; {@link RestoreResult#verified()} says whether the state matched
     * @throws RunFailure if the restore failed, carrying the checkpointing phase's figures
     * @throws Exception if the job failed, timed out, or Flink could not be reached
     */
    public RunResult run(int restoreParallelism) throws Exception {
        CheckpointingPhase.Outcome checkpointing = new CheckpointingPhase(launcher, rest, events).run();
        RestoreResult restore;
        try {
            restore = new RestorePhase(launcher, rest, events).run(checkpointing, restoreParallelism);
        } catch (Exception e) {
            throw new RunFailure("restore failed: " + FailureMessages.describe(e), e, result(checkpointing, null));
        }
        return result(checkpointing, restore);
    }

    /**
     * Only the restore: restarts the job from {@code checkpoint} and verifies its state against what the job
     * held there, as {@link #run} does after its checkpointing phase (for runs that checkpoint their own way,
     * such as the soak's).
     *
     * @param keys the keys the state held at that checkpoint
     * @param stateDigest the state's digest at that checkpoint
     * @throws Exception if the restored job fails, or does not run or verify in time
     */
    public RestoreResult restore(CheckpointStats checkpoint, long keys, long stateDigest, int parallelism)
            throws Exception {
        CheckpointingPhase.Outcome outcome =
                new CheckpointingPhase.Outcome("", 0, 0, keys, stateDigest, 0, 0, List.of(), checkpoint);
        return new RestorePhase(launcher, rest, events).run(outcome, parallelism);
    }

    private RunResult result(CheckpointingPhase.Outcome checkpointing, RestoreResult restore) {
        return new RunResult(
                checkpointing.jobId(),
                checkpointing.startTimestamp(),
                launcher.parameters().totalRecords(),
                checkpointing.recordsProcessed(),
                checkpointing.keysCreated(),
                RestorePhase.hex(checkpointing.stateDigest()),
                checkpointing.seconds(),
                checkpointing.processingSeconds(),
                checkpointing.checkpoints(),
                restore);
    }
}
