package dev.flinks3.bench.checkpoint.run;

import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import dev.flinks3.bench.checkpoint.results.RunResult;

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
