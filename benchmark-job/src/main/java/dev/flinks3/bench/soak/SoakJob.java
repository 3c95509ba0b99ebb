package dev.flinks3.bench.soak;

import dev.flinks3.bench.checkpoint.job.JobAccumulators;
import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.LargeStateGeneratorJob;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import dev.flinks3.bench.checkpoint.run.BenchmarkRun;
import dev.flinks3.bench.checkpoint.run.JobLauncher;
import dev.flinks3.bench.checkpoint.run.JobWatch;
import dev.flinks3.bench.checkpoint.run.RunEvents;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import dev.flinks3.bench.checkpoint.stats.CheckpointStatsCollector;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import tools.jackson.databind.JsonNode;

/**
 * One job of a soak: the main job ({@link LargeStateGeneratorJob}) with its parameters, checkpointing under its own
 * folder of the run's checkpoint directory, restarted by Flink after every TaskManager stop, and optionally writing the
 * index of every processed record through a {@link FileSink} (row format, rolled at each checkpoint) under {@code
 * <its folder>/sink}. Tracks what it needs to say, at the end, whether nothing was lost: its checkpoints, its state
 * digest against the {@link ExpectedState}, the restores that verified, the final restore and the sink's records. Not
 * thread-safe, except {@link #checkpoints()}.
 */
final class SoakJob {

    private final String name;
    private final JobParameters parameters;
    private final String checkpointDirectory;
    private final String sinkDirectory;
    private final JobLauncher launcher;
    private final FlinkRestClient rest;
    private final ExpectedState expected;
    private final Map<Long, SoakOutcome.Checkpoint> checkpoints = Collections.synchronizedMap(new TreeMap<>());
    private JobClient client;
    private JobWatch watch;
    private CheckpointStatsCollector collector;
    private String liveDigest = "";
    private long lastCheckpointNeeded = -1;
    private long restoredLast;
    private RestoreResult finalRestore;
    private SinkVerification sink;

    /**
     * @param name the job's name in the report, e.g. {@code main}, {@code forst}
     * @param parameters its parameters (validated)
     * @param runDirectory the run's checkpoint directory; the job's checkpoints go to {@code <it>/<name>}
     * @param withSink whether the job writes its records through a FileSink
     * @param environments the cluster's environments
     * @param rest the cluster's REST API
     */
    SoakJob(
            String name,
            JobParameters parameters,
            String runDirectory,
            boolean withSink,
            Function<Configuration, StreamExecutionEnvironment> environments,
            FlinkRestClient rest) {
        this.name = name;
        this.parameters = parameters;
        this.checkpointDirectory = runDirectory.replaceAll("/+$", "") + "/" + name;
        this.sinkDirectory = withSink ? checkpointDirectory + "/sink" : null;
        Configuration conf = LargeStateGeneratorJob.configuration(parameters, checkpointDirectory);
        // A stopped TaskManager is a failure the job must recover from, as in production.
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Integer.MAX_VALUE);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        String sinkDir = sinkDirectory;
        this.launcher = new JobLauncher(environments, conf, parameters, stream -> {
            if (sinkDir != null) {
                stream.sinkTo(FileSink.forRowFormat(
                                        new org.apache.flink.core.fs.Path(sinkDir), new SimpleStringEncoder<Long>())
                                .withRollingPolicy(OnCheckpointRollingPolicy.build())
                                .build())
                        .name("file-sink")
                        .uid("file-sink");
            }
        });
        this.rest = rest;
        this.expected = ExpectedState.of(parameters);
    }

    String name() {
        return name;
    }

    JobParameters parameters() {
        return parameters;
    }

    /** Submits the job and starts following its checkpoints. */
    void submit(RunEvents events) throws Exception {
        client = launcher.submit(parameters.parallelism(), null);
        watch = new JobWatch(rest, client.getJobID().toString());
        events.line("submitted " + name + " job " + watch.jobId() + ": " + parameters
                + (sinkDirectory == null ? "" : "; FileSink to " + sinkDirectory));
        collector = new CheckpointStatsCollector(rest, watch.jobId(), checkpoint -> {
            checkpoints.put(
                    checkpoint.id(),
                    new SoakOutcome.Checkpoint(
                            checkpoint.id(),
                            checkpoint.completed(),
                            checkpoint.triggerTimestamp(),
                            checkpoint.endToEndDurationMs(),
                            checkpoint.failureMessage()));
            if (!checkpoint.completed()) {
                events.line(name + ": " + CheckpointStatsCollector.describe(checkpoint));
            }
        });
    }

    /**
     * Checks the job still runs (or restarts), collects its new checkpoints, and notes when every record reached the
     * state (the checkpoint after the next one then holds them all and has committed the sink's last files).
     *
     * @return whether the job has every record in its state and a completed checkpoint that holds them
     * @throws dev.flinks3.bench.checkpoint.run.RunFailure if the job failed for good
     */
    boolean poll(RunEvents events) throws Exception {
        JsonNode state = watch.job();
        watch.requireAlive(state);
        collector.poll();
        if (lastCheckpointNeeded < 0) {
            Map<String, String> accumulators = watch.accumulators();
            long digest = watch.accumulator(accumulators, JobAccumulators.STATE_DIGEST);
            long keys = watch.accumulator(accumulators, JobAccumulators.KEYS_CREATED)
                    + watch.accumulator(accumulators, JobAccumulators.RESTORE_VERIFIED_KEYS);
            liveDigest = hex(digest);
            if (digest == expected.digest() && keys == expected.keys()) {
                Thread.sleep(rest.refreshIntervalMs() + 500);
                collector.poll();
                lastCheckpointNeeded = collector.highestIdSeen() + 2;
                events.line(name + ": every record is in the state (digest " + liveDigest + "); waiting for checkpoint "
                        + lastCheckpointNeeded);
            }
        }
        long latest = collector.latestCompleted().map(CheckpointStats::id).orElse(0L);
        return lastCheckpointNeeded > 0 && latest >= lastCheckpointNeeded;
    }

    /**
     * Whether a checkpoint completed since the last stop's restore (or at all, before the first stop): a stop before
     * one would restart the job from nothing, or from the checkpoint it restored last time, so a job slower to
     * checkpoint than the stops come would never move on.
     */
    boolean checkpointedSinceLastRestore() {
        long latest = collector.latestCompleted().map(CheckpointStats::id).orElse(0L);
        return latest > 0 && latest > restoredLast;
    }

    /** Notes the checkpoint the job restored from after a stop. */
    void restored(long checkpointId) {
        restoredLast = Math.max(restoredLast, checkpointId);
    }

    /** Completed and failed checkpoints so far. */
    long[] checkpointCounts() {
        long completed = collector.checkpoints().stream()
                .filter(CheckpointStats::completed)
                .count();
        return new long[] {completed, collector.checkpoints().size() - completed};
    }

    /** The id of the checkpoint in progress now, or 0. */
    long checkpointInProgress() throws IOException {
        for (JsonNode entry : rest.checkpoints(watch.jobId()).path("history")) {
            if (CheckpointStats.IN_PROGRESS.equals(entry.path("status").asString(""))) {
                return entry.path("id").asLong(0);
            }
        }
        return 0;
    }

    /**
     * After a stop: the checkpoint the job restored from once it runs again and every subtask verified its restored
     * state, else 0.
     *
     * @param stoppedAt when the TaskManager was stopped, ms since the epoch
     */
    long restoredAndVerifiedSince(long stoppedAt) throws Exception {
        JsonNode state = watch.job();
        watch.requireAlive(state);
        JsonNode restored = rest.checkpoints(watch.jobId()).path("latest").path("restored");
        if (restored.path("restore_timestamp").asLong(0) >= stoppedAt
                && "RUNNING".equals(state.path("state").asString(""))
                && watch.accumulator(watch.accumulators(), JobAccumulators.RESTORE_VERIFIED_SUBTASKS)
                        >= parameters.parallelism()) {
            return restored.path("id").asLong(0);
        }
        return 0;
    }

    /** Cancels the job and waits until the REST API says it is cancelled. */
    void cancel() throws Exception {
        client.cancel().get(2, TimeUnit.MINUTES);
        while (!"CANCELED".equals(watch.job().path("state").asString(""))) {
            Thread.sleep(500);
        }
        Thread.sleep(rest.refreshIntervalMs() + 500);
        collector.poll();
    }

    /**
     * After {@link #cancel()}: restores the last completed checkpoint in a new job, verifies the state read back
     * against the expected one, and reads the sink's committed files.
     */
    void verifyAtEnd(RunEvents events) throws Exception {
        CheckpointStats last = collector.latestCompleted().orElseThrow();
        finalRestore = new BenchmarkRun(launcher, rest, events)
                .restore(last, expected.keys(), expected.digest(), parameters.parallelism());
        if (sinkDirectory != null) {
            sink = SinkVerification.of(new org.apache.flink.core.fs.Path(sinkDirectory), parameters.totalRecords());
            events.line(String.format(
                    "%s: sink: %,d of %,d records in %d committed part files, %d duplicates, %d missing (%s)",
                    name,
                    sink.distinct(),
                    sink.expected(),
                    sink.partFiles(),
                    sink.duplicates(),
                    sink.missing(),
                    sink.exactlyOnce() ? "exactly once" : "NOT exactly once"));
        }
    }

    /** The job's id in the REST API. */
    String jobId() {
        return watch.jobId();
    }

    /**
     * What the run's result takes from the job.
     *
     * @param recordsInSink distinct records in the sink's committed files, 0 without a sink
     * @param checkpoints its checkpoints up to the last completed one
     */
    record Result(long recordsInSink, List<CheckpointStats> checkpoints) {}

    /** What the run's result takes from the job, after {@link #verifyAtEnd}. */
    Result result() {
        long last = collector.latestCompleted().map(CheckpointStats::id).orElse(Long.MAX_VALUE);
        return new Result(
                sink == null ? 0 : sink.distinct(),
                collector.checkpoints().stream().filter(c -> c.id() <= last).toList());
    }

    RestoreResult finalRestore() {
        return finalRestore;
    }

    long expectedKeys() {
        return expected.keys();
    }

    String liveDigest() {
        return liveDigest;
    }

    /** What the report needs of this job. */
    SoakOutcome.JobOutcome outcome() {
        List<SoakOutcome.Checkpoint> all;
        synchronized (checkpoints) {
            all = new ArrayList<>(checkpoints.values());
        }
        return new SoakOutcome.JobOutcome(
                name,
                parameters.toString(),
                parameters.parallelism(),
                all,
                expected.keys(),
                hex(expected.digest()),
                liveDigest,
                finalRestore,
                sinkDirectory != null,
                sink);
    }

    /** The checkpoints of the job so far, thread-safe. */
    Map<Long, SoakOutcome.Checkpoint> checkpoints() {
        return checkpoints;
    }

    static String hex(long digest) {
        return String.format("%016x", digest);
    }
}
