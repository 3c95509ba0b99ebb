package dev.flinks3.bench.checkpoint.run;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.LargeStateGeneratorJob;
import dev.flinks3.bench.checkpoint.job.StateBackendKind;
import dev.flinks3.bench.checkpoint.job.source.SequenceSource.AfterLastRecord;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.RecoveryClaimMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Submits the job, fresh or restored from a checkpoint, through a {@link StreamExecutionEnvironment}:
 * in local mode one that targets the MiniCluster's REST address, under {@code flink run} the
 * context environment. Thread-safe if the environment factory is.
 */
public final class JobLauncher {

    private final Function<Configuration, StreamExecutionEnvironment> environments;
    private final Configuration jobConfiguration;
    private final JobParameters parameters;
    private final Consumer<DataStream<Long>> extraSinks;

    /**
     * @param environments creates an environment carrying the given job configuration
     * @param jobConfiguration checkpointing and state backend settings ({@link LargeStateGeneratorJob#configuration})
     */
    public JobLauncher(
            Function<Configuration, StreamExecutionEnvironment> environments,
            Configuration jobConfiguration,
            JobParameters parameters) {
        this(environments, jobConfiguration, parameters, stream -> {});
    }

    /**
     * A launcher whose job also writes the accumulator's output (the index of each processed record) to sinks
     * of the caller's, e.g. a FileSink whose files the soak checks for every record exactly once.
     *
     * @param extraSinks adds sinks to the accumulator's output
     */
    public JobLauncher(
            Function<Configuration, StreamExecutionEnvironment> environments,
            Configuration jobConfiguration,
            JobParameters parameters,
            Consumer<DataStream<Long>> extraSinks) {
        this.environments = environments;
        this.jobConfiguration = jobConfiguration;
        this.parameters = parameters;
        this.extraSinks = extraSinks;
    }

    /**
     * Submits the job and returns without waiting for it to run.
     *
     * @param parallelism the job's parallelism
     * @param restorePath a checkpoint to restore from, or null for a fresh start
     * @throws Exception if the submission fails
     */
    public JobClient submit(int parallelism, String restorePath) throws Exception {
        Configuration conf = submissionConfiguration(jobConfiguration, parameters, restorePath);
        StreamExecutionEnvironment env = environments.apply(conf);
        extraSinks.accept(
                LargeStateGeneratorJob.addTo(env, parameters, parallelism, AfterLastRecord.IDLE, restorePath != null));
        return env.executeAsync(LargeStateGeneratorJob.JOB_NAME + (restorePath == null ? "" : " (restore)"));
    }

    /**
     * The configuration a submission runs with: the job's, and for a restore the checkpoint's path, the claim mode
     * of {@code --restore-claim-mode} and (for ForSt) no periodic checkpoints.
     *
     * @param restorePath a checkpoint to restore from, or null for a fresh start
     */
    static Configuration submissionConfiguration(
            Configuration jobConfiguration, JobParameters parameters, String restorePath) {
        Configuration conf = new Configuration(jobConfiguration);
        if (restorePath != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, restorePath);
            // By default as an autoscaler restores its job: the restored job owns the checkpoint (claim mode), so
            // a state backend may keep using the checkpoint's files where they lie instead of copying them.
            conf.set(StateRecoveryOptions.RESTORE_MODE, RecoveryClaimMode.valueOf(parameters.restoreClaimMode()));
            if (parameters.stateBackend() == StateBackendKind.FORST) {
                // The restored job only reads its state back, and ForSt 2.3.0 cannot cancel it while a
                // checkpoint is under way: its tasks wait in ForStKeyedStateBackend.dispose for the snapshot's
                // resource lease, which the cancelled snapshot never returns. No periodic checkpoints, no wait.
                conf.removeConfig(CheckpointingOptions.CHECKPOINTING_INTERVAL);
            }
        }
        return conf;
    }

    public JobParameters parameters() {
        return parameters;
    }
}
