package dev.flinks3.bench.checkpoint.job;

import dev.flinks3.bench.checkpoint.job.source.SequenceSource;
import dev.flinks3.bench.checkpoint.job.source.SequenceSource.AfterLastRecord;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.state.forst.ForStOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The large-state generator: a rate-limited source of keyed records with a payload, {@code keyBy},
 * an accumulator holding one {@code ValueState<byte[]>} per key (see {@link StateAccumulatorOperator}),
 * and a discarding sink. It checkpoints with RocksDB (managed memory), or with ForSt and its SST files on
 * {@code s3://} ({@code --state-backend forst}, {@link AsyncStateAccumulatorOperator}), to an {@code s3://} directory,
 * exactly-once, one checkpoint at a time, retaining the last checkpoint on cancel: the
 * configuration of a production job, so checkpoint figures reflect the filesystem plugin.
 */
public final class LargeStateGeneratorJob {

    /** Fixed so key groups, and therefore the recorded digests, do not depend on the parallelism. */
    public static final int MAX_PARALLELISM = 128;

    /** The job's name in Flink's REST API and UI. */
    public static final String JOB_NAME = "LargeStateGeneratorJob";

    /** Names (and uids) of the job's operators. */
    public static final String SOURCE_NAME = "generator";

    public static final String ACCUMULATOR_NAME = "accumulator";
    public static final String SINK_NAME = "discard";

    private LargeStateGeneratorJob() {}

    /**
     * Runs the job on its own, e.g. {@code flink run -c dev.flinks3.bench.checkpoint.job.LargeStateGeneratorJob
     * flinks3-benchmark-job.jar --numKeys ...} or as a Kubernetes operator deployment's entry class:
     * the source ends after its last record and the job finishes after Flink's final checkpoint.
     * Checkpoints go to {@code --checkpointDir}, or else to the cluster's {@code execution.checkpointing.dir};
     * {@code s3.*} settings come from the cluster's configuration.
     *
     * @param args the {@link JobParameters} options, and optionally {@code --checkpointDir s3://...}
     * @throws Exception if the job fails
     */
    public static void main(String[] args) throws Exception {
        StandaloneOptions options = new StandaloneOptions();
        new CommandLine(options).parseArgs(args);
        JobParameters parameters = options.parameters.validate();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                configuration(parameters, options.checkpointDirectory));
        addTo(env, parameters, parameters.parallelism(), AfterLastRecord.FINISH);
        env.execute(JOB_NAME);
    }

    /** The options of {@link #main}: the job's parameters and where checkpoints go. */
    static final class StandaloneOptions {
        @Mixin
        JobParameters parameters = new JobParameters();

        @Option(
                names = "--checkpointDir",
                description = "Checkpoint directory (default: the cluster's execution.checkpointing.dir).")
        String checkpointDirectory;
    }

    /**
     * The job-level configuration: state backend, checkpointing and failure handling.
     *
     * @param parameters the job's parameters
     * @param checkpointDirectory where checkpoints go, e.g. {@code s3://bucket/checkpoints}; null to keep
     *     the cluster's {@code execution.checkpointing.dir}
     */
    public static Configuration configuration(JobParameters parameters, String checkpointDirectory) {
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, parameters.stateBackend().configName());
        if (parameters.stateBackend() == StateBackendKind.FORST) {
            configureForSt(conf, parameters, checkpointDirectory);
        } else {
            conf.set(RocksDBOptions.USE_MANAGED_MEMORY, true);
            conf.set(RocksDBOptions.CHECKPOINT_TRANSFER_THREAD_NUM, parameters.rocksDbTransferThreads());
        }
        conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        if (checkpointDirectory != null) {
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDirectory);
        }
        conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, parameters.incrementalCheckpoints());
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, parameters.checkpointInterval());
        conf.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, parameters.minPause());
        conf.set(CheckpointingOptions.CHECKPOINTING_TIMEOUT, parameters.checkpointTimeout());
        conf.set(CheckpointingOptions.MAX_CONCURRENT_CHECKPOINTS, 1);
        conf.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        conf.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        // A failed checkpoint is a measurement (counted in the report), not a reason to stop the job.
        conf.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, Integer.MAX_VALUE);
        // A task failure (e.g. restored state that does not verify) must end the run, not be retried away.
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        // Shown by the REST API (/jobs/:jobid/config, user-config): a report can say what ran.
        conf.set(PipelineOptions.GLOBAL_JOB_PARAMETERS, parameters.toMap());
        return conf;
    }

    /**
     * ForSt with its SST files under {@code <checkpointDirectory>/forst} (the same bucket as the checkpoints,
     * through the same filesystem plugin), a local file cache of {@code --forst-cache-size} and managed memory.
     * Without a checkpoint directory the cluster's {@code state.backend.forst.primary-dir} applies (by
     * default the checkpoint directory itself).
     */
    private static void configureForSt(Configuration conf, JobParameters parameters, String checkpointDirectory) {
        if (checkpointDirectory != null) {
            conf.set(ForStOptions.PRIMARY_DIRECTORY, forStPrimaryDirectory(checkpointDirectory));
        }
        long cacheBytes = parameters.forstCacheSizeBytes();
        conf.set(ForStOptions.CACHE_SIZE_BASE_LIMIT, new MemorySize(cacheBytes));
        if (cacheBytes == 0) {
            // ForSt also caches when only the disk space to keep free is set (its default 256 MiB): off means both 0.
            conf.set(ForStOptions.CACHE_RESERVED_SIZE, MemorySize.ZERO);
        }
        conf.set(ForStOptions.USE_MANAGED_MEMORY, true);
    }

    /** Where ForSt keeps its SST files for a job checkpointing to {@code checkpointDirectory}. */
    public static String forStPrimaryDirectory(String checkpointDirectory) {
        return checkpointDirectory.replaceAll("/+$", "") + "/forst";
    }

    /**
     * Adds the job's pipeline to {@code env}.
     *
     * @param parallelism parallelism of every operator (the restore may use another than the first run)
     * @param afterLastRecord whether the source idles (for the runner to cancel) or ends after its last record
     * @return the accumulator's output (the index of each processed record), for a caller to add another sink to
     */
    public static SingleOutputStreamOperator<Long> addTo(
            StreamExecutionEnvironment env,
            JobParameters parameters,
            int parallelism,
            AfterLastRecord afterLastRecord) {
        return addTo(env, parameters, parallelism, afterLastRecord, false);
    }

    /**
     * Adds the job's pipeline to {@code env}, for a fresh start or for a job restored from the first run's
     * checkpoint: a restored job's source also emits {@code --records-after-restore} records, at {@code
     * --rate-after-restore} (unthrottled when 0), and its accumulator verifies the state once they are processed.
     *
     * @param restored whether the job is submitted to restore from a checkpoint
     * @return the accumulator's output (the index of each processed record), for a caller to add another sink to
     */
    public static SingleOutputStreamOperator<Long> addTo(
            StreamExecutionEnvironment env,
            JobParameters parameters,
            int parallelism,
            AfterLastRecord afterLastRecord,
            boolean restored) {
        RecordGenerator generator = RecordGenerator.of(parameters);
        double rate = !restored || parameters.recordsAfterRestore() == 0
                ? parameters.recordsPerSecond()
                : parameters.rateAfterRestore() > 0 ? parameters.rateAfterRestore() : Double.POSITIVE_INFINITY;
        env.setParallelism(parallelism);
        env.setMaxParallelism(MAX_PARALLELISM);
        KeyedStream<GeneratedRecord, Long> keyed = env.fromSource(
                        new SequenceSource(
                                generator,
                                parameters.totalRecords(),
                                rate,
                                afterLastRecord,
                                parameters.recordsAfterRestore()),
                        WatermarkStrategy.noWatermarks(),
                        SOURCE_NAME,
                        TypeInformation.of(GeneratedRecord.class))
                .uid(SOURCE_NAME)
                .keyBy(record -> record.key, Types.LONG);
        SingleOutputStreamOperator<Long> accumulated = parameters.stateBackend() == StateBackendKind.FORST
                ? keyed.enableAsyncState()
                        .transform(
                                ACCUMULATOR_NAME,
                                Types.LONG,
                                new AsyncStateAccumulatorOperator(
                                        generator, parameters.totalRecords(), parameters.recordsAfterRestore()))
                : keyed.transform(
                        ACCUMULATOR_NAME,
                        Types.LONG,
                        new StateAccumulatorOperator(
                                generator, parameters.totalRecords(), parameters.recordsAfterRestore()));
        accumulated
                .uid(ACCUMULATOR_NAME)
                .sinkTo(new DiscardingSink<>())
                .name(SINK_NAME)
                .uid(SINK_NAME);
        return accumulated;
    }
}
