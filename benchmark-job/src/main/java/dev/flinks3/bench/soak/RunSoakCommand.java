package dev.flinks3.bench.soak;

import dev.flinks3.bench.checkpoint.job.DurationConverter;
import dev.flinks3.bench.checkpoint.job.JobAccumulators;
import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.LargeStateGeneratorJob;
import dev.flinks3.bench.checkpoint.local.ContenderJvmOptions;
import dev.flinks3.bench.checkpoint.local.LocalFlinkCluster;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.PluginMBeans;
import dev.flinks3.bench.checkpoint.results.PluginMetrics;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import dev.flinks3.bench.checkpoint.results.RunResult;
import dev.flinks3.bench.checkpoint.run.BenchmarkRun;
import dev.flinks3.bench.checkpoint.run.JobLauncher;
import dev.flinks3.bench.checkpoint.run.JobWatch;
import dev.flinks3.bench.checkpoint.run.RunEvents;
import dev.flinks3.bench.checkpoint.run.RunOutcome;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import dev.flinks3.bench.checkpoint.stats.CheckpointStatsCollector;
import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.PluginInfo;
import dev.flinks3.bench.common.ProcessMeter;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

/**
 * One soak run in a JVM of its own, started by {@link SoakCommand} through the local runner's session (the same
 * arguments as {@code run-contender}, and the soak's after them). Loads the one plugin under
 * {@code $FLINK_PLUGINS_DIR}, starts a MiniCluster, and runs the job (RocksDB state, checkpoints to
 * {@code --checkpoint-dir}, and a FileSink of the processed record indices under {@code <checkpoint-dir>/sink})
 * with restarts allowed, until every record is in the state; meanwhile it samples this JVM
 * ({@link SoakSampler}) and, every {@code --kill-interval}, stops the TaskManager while a checkpoint is in progress
 * ({@link LocalFlinkCluster#replaceTaskManager}) and waits for the job to restore from its latest checkpoint and
 * verify it. At the end: a checkpoint after the last record, the job cancelled, a restore from that checkpoint
 * verified against the {@link ExpectedState}, every record checked exactly once in the sink's committed files
 * ({@link SinkVerification}), and the multipart uploads left at the server counted. Writes a
 * {@link ContenderResult} to {@code --result} and a {@link SoakOutcome} to {@code --soak-result}.
 */
@Command(name = "run-soak", hidden = true, description = "Runs one soak in this JVM (started by soak).")
public final class RunSoakCommand implements Callable<Integer> {

    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration RECOVERY_TIMEOUT = Duration.ofMinutes(5);
    private static final String KILL_DESCRIPTION =
            "MiniCluster.terminateTaskManager(the running one) while a checkpoint was in"
                    + " progress, then MiniCluster.startTaskManager() with the same slots: the TaskExecutor closes, its tasks"
                    + " are cancelled (their streams closed or abandoned mid-upload) and the JobManager restarts the job from"
                    + " its latest completed checkpoint (fixed-delay restarts, 1 s). The TaskManager shares the JVM with the"
                    + " JobManager and the plugin, so its process and the plugin's S3 clients live on: a TaskManager lost to"
                    + " the cluster, not a process killed with SIGKILL.";

    @Mixin
    JobParameters job = new JobParameters();

    @Mixin
    ContenderJvmOptions run = new ContenderJvmOptions();

    @Option(names = "--soak-result", required = true)
    Path soakResultFile;

    @Option(names = "--sample-interval", required = true, converter = DurationConverter.class)
    Duration sampleInterval;

    @Option(names = "--kill-interval", required = true, converter = DurationConverter.class)
    Duration killInterval;

    @Option(names = "--attempt-timeout", converter = DurationConverter.class)
    Duration attemptTimeout;

    @Option(names = "--delete-objects", defaultValue = "false", arity = "1")
    boolean deleteObjects;

    private final List<SoakSample> samples = Collections.synchronizedList(new ArrayList<>());
    private final List<SoakOutcome.Kill> kills = Collections.synchronizedList(new ArrayList<>());
    private final Map<Long, SoakOutcome.Checkpoint> checkpoints =
            Collections.synchronizedMap(new java.util.TreeMap<>());
    private PluginInfo plugin;
    private String liveDigest = "";
    private SinkVerification sink;
    private SoakOutcome.UploadsAtEnd uploadsAtEnd;
    private ExpectedState expected;
    private long soakEnd;

    @Override
    public Integer call() throws Exception {
        job.validate();
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        RunEvents events = RunEvents.of(out::println, phase -> {});
        ProcessMeter meter = new ProcessMeter();
        meter.start();
        Map<String, String> entries = flinkEntries();
        Configuration conf = Configuration.fromMap(entries);
        Path tmp = run.tmpDir();
        conf.set(CoreOptions.TMP_DIRS, tmp.toAbsolutePath().toString());
        plugin = PluginInfo.notLoaded(run.contender(), run.pluginJar());
        events.line("computing the expected state of " + job.totalRecords() + " records");
        expected = ExpectedState.of(job);
        RunOutcome outcome = RunOutcome.of(() -> loadAndRun(conf, entries, tmp, events));
        if (outcome.failed()) {
            events.line("FAILED: " + outcome.error());
        }
        ProcessMeter.Sample jvm = meter.stop();
        meter.close();
        PluginMetrics metrics = null;
        try {
            metrics = PluginMBeans.platform().read();
        } catch (Exception e) {
            events.line("could not read the plugin's metrics MBeans: " + e);
        }
        Json.write(
                run.resultFile(),
                new ContenderResult(
                        plugin,
                        run.round(),
                        outcome.run(),
                        outcome.error(),
                        jvm.cpuNanos() / 1e9,
                        jvm.peakHeapBytes(),
                        Map.of(),
                        0,
                        metrics));
        SoakOutcome soak = outcome(outcome.error());
        Json.write(soakResultFile, soak);
        return outcome.failed() || !soak.verified() ? 1 : 0;
    }

    /** What the soak found so far; written after every sample too, so a run that is stopped keeps its samples. */
    private SoakOutcome outcome(String error) {
        List<SoakSample> samplesNow;
        synchronized (samples) {
            samplesNow = List.copyOf(samples);
        }
        List<SoakOutcome.Checkpoint> checkpointsNow;
        synchronized (checkpoints) {
            checkpointsNow = new ArrayList<>(checkpoints.values());
        }
        List<SoakOutcome.Kill> killsNow;
        synchronized (kills) {
            killsNow = List.copyOf(kills);
        }
        return new SoakOutcome(
                samplesNow,
                checkpointsNow,
                killsNow,
                expected.keys(),
                hex(expected.digest()),
                liveDigest,
                sink,
                uploadsAtEnd,
                killInterval.isZero() ? "none" : KILL_DESCRIPTION,
                error,
                soakEnd);
    }

    private void sampleAndSave(SoakSampler sampler) {
        samples.add(sampler.sample());
        try {
            Json.write(soakResultFile, outcome("in progress: the run did not reach its end checks"));
        } catch (IOException | RuntimeException e) {
            // The next sample writes again; the end writes the final outcome.
        }
    }

    private RunResult loadAndRun(Configuration conf, Map<String, String> entries, Path tmp, RunEvents events)
            throws Exception {
        PluginManager plugins = PluginUtils.createPluginManagerFromRootFolder(conf);
        FileSystem.initialize(conf, plugins);
        plugin = PluginInfo.loaded(run.contender(), run.pluginJar(), run.checkpointDirectory());
        events.line("plugin " + plugin.jar() + " " + plugin.version() + ": served by " + plugin.fileSystemClass());
        String bucket = run.checkpointDirectory().getHost();
        String prefix = run.checkpointDirectory().getPath().replaceAll("^/+", "") + "/";
        URI endpoint = URI.create(entries.getOrDefault("s3.endpoint", "https://s3.amazonaws.com"));
        int port = endpoint.getPort() > 0 ? endpoint.getPort() : "https".equals(endpoint.getScheme()) ? 443 : 80;
        try (ServerUploads uploads = new ServerUploads(entries, bucket, prefix);
                LocalFlinkCluster cluster = LocalFlinkCluster.start(
                        conf,
                        Math.max(job.parallelism(), run.restoreParallelism()),
                        MemorySize.parse(run.managedMemory()),
                        plugins)) {
            SoakSampler sampler = new SoakSampler(port, List.of(tmp), SoakSampler.TEMPORARY_FILE_MIN_AGE, () -> {
                try {
                    return uploads.openUploadKeys().size();
                } catch (RuntimeException e) {
                    return -1;
                }
            });
            ScheduledExecutorService sampling = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "soak-sampler");
                thread.setDaemon(true);
                return thread;
            });
            sampling.scheduleAtFixedRate(
                    () -> sampleAndSave(sampler), 0, sampleInterval.toMillis(), TimeUnit.MILLISECONDS);
            try {
                return runJob(cluster, uploads, prefix, events);
            } finally {
                sampling.shutdown();
                sampling.awaitTermination(1, TimeUnit.MINUTES);
                samples.add(sampler.sample());
            }
        }
    }

    private RunResult runJob(LocalFlinkCluster cluster, ServerUploads uploads, String prefix, RunEvents events)
            throws Exception {
        Configuration jobConf = LargeStateGeneratorJob.configuration(
                job, run.checkpointDirectory().toString());
        // A stopped TaskManager is a failure the job must recover from, as in production.
        jobConf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        jobConf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Integer.MAX_VALUE);
        jobConf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        String sinkDir = run.checkpointDirectory().toString().replaceAll("/+$", "") + "/sink";
        JobLauncher launcher = new JobLauncher(
                cluster.environments(),
                jobConf,
                job,
                stream -> stream.sinkTo(FileSink.forRowFormat(
                                        new org.apache.flink.core.fs.Path(sinkDir), new SimpleStringEncoder<Long>())
                                .withRollingPolicy(OnCheckpointRollingPolicy.build())
                                .build())
                        .name("file-sink")
                        .uid("file-sink"));
        FlinkRestClient rest = new FlinkRestClient(cluster.restAddress());
        long start = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        JobClient client = launcher.submit(job.parallelism(), null);
        JobWatch watch = new JobWatch(rest, client.getJobID().toString());
        events.line("submitted job " + watch.jobId() + ": " + job + "; FileSink to " + sinkDir);
        CheckpointStatsCollector collector = new CheckpointStatsCollector(rest, watch.jobId(), checkpoint -> {
            checkpoints.put(
                    checkpoint.id(),
                    new SoakOutcome.Checkpoint(
                            checkpoint.id(),
                            checkpoint.completed(),
                            checkpoint.triggerTimestamp(),
                            checkpoint.endToEndDurationMs(),
                            checkpoint.failureMessage()));
            if (!checkpoint.completed()) {
                events.line(CheckpointStatsCollector.describe(checkpoint));
            }
        });
        Duration limit = job.duration().multipliedBy(3).plusMinutes(10);
        long nextKill = killInterval.isZero() ? Long.MAX_VALUE : start + killInterval.toNanos();
        long nextProgress = start;
        long lastCheckpointNeeded = -1;
        while (true) {
            Thread.sleep(POLL.toMillis());
            JsonNode state = watch.job();
            watch.requireAlive(state);
            collector.poll();
            Map<String, String> accumulators = watch.accumulators();
            long digest = watch.accumulator(accumulators, JobAccumulators.STATE_DIGEST);
            long keys = watch.accumulator(accumulators, JobAccumulators.KEYS_CREATED)
                    + watch.accumulator(accumulators, JobAccumulators.RESTORE_VERIFIED_KEYS);
            long now = System.nanoTime();
            if (now >= nextProgress) {
                events.line(String.format(
                        "soak %d s: %d checkpoints completed, %d failed, %d TaskManagers stopped, %d samples",
                        (now - start) / 1_000_000_000L,
                        collector.checkpoints().stream()
                                .filter(CheckpointStats::completed)
                                .count(),
                        collector.checkpoints().stream()
                                .filter(c -> !c.completed())
                                .count(),
                        kills.size(),
                        samples.size()));
                nextProgress = now + Duration.ofMinutes(1).toNanos();
            }
            // A stop before the first completed checkpoint would restart the job from nothing: no restore to verify.
            if (lastCheckpointNeeded < 0
                    && now >= nextKill
                    && collector.latestCompleted().isPresent()) {
                if (kills.isEmpty()) {
                    ClassHistogram.write(histogramFile("first-stop"), events);
                }
                kills.add(killDuringCheckpoint(cluster, rest, watch, events));
                nextKill = System.nanoTime() + killInterval.toNanos();
                continue;
            }
            if (lastCheckpointNeeded < 0 && digest == expected.digest() && keys == expected.keys()) {
                // Every record is in the state; a checkpoint triggered from now on holds them all, and the one
                // after it has surely committed the sink's last part files.
                Thread.sleep(rest.refreshIntervalMs() + POLL.toMillis());
                collector.poll();
                lastCheckpointNeeded = collector.highestIdSeen() + 2;
                liveDigest = hex(digest);
                events.line("every record is in the state (digest " + liveDigest + "); waiting for checkpoint "
                        + lastCheckpointNeeded);
            }
            long latest = collector.latestCompleted().map(CheckpointStats::id).orElse(0L);
            if (lastCheckpointNeeded > 0 && latest >= lastCheckpointNeeded) {
                break;
            }
            if (now - start > limit.toNanos()) {
                liveDigest = hex(digest);
                throw new IllegalStateException("the job's state did not reach the expected digest "
                        + hex(expected.digest()) + " (" + expected.keys() + " keys) in " + limit.toMinutes()
                        + " min: digest " + hex(digest) + ", " + keys + " keys");
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        soakEnd = System.currentTimeMillis();
        ClassHistogram.write(histogramFile("end"), events);
        client.cancel().get(2, TimeUnit.MINUTES);
        while (!"CANCELED".equals(watch.job().path("state").asString(""))) {
            Thread.sleep(POLL.toMillis());
        }
        Thread.sleep(rest.refreshIntervalMs() + POLL.toMillis());
        collector.poll();
        CheckpointStats last = collector.latestCompleted().orElseThrow();
        RestoreResult restore = new BenchmarkRun(launcher, rest, events)
                .restore(last, expected.keys(), expected.digest(), job.parallelism());
        sink = SinkVerification.of(new org.apache.flink.core.fs.Path(sinkDir), job.totalRecords());
        events.line(String.format(
                "sink: %,d of %,d records in %d committed part files, %d duplicates, %d missing (%s)",
                sink.distinct(),
                sink.expected(),
                sink.partFiles(),
                sink.duplicates(),
                sink.missing(),
                sink.exactlyOnce() ? "exactly once" : "NOT exactly once"));
        List<String> open = uploads.openUploadKeys();
        long sinkUploads =
                open.stream().filter(k -> k.startsWith(prefix + "sink/")).count();
        uploadsAtEnd = new SoakOutcome.UploadsAtEnd(
                open.size() - sinkUploads, sinkUploads, open.subList(0, Math.min(20, open.size())));
        events.line("multipart uploads open at the server under " + prefix + ": " + open.size());
        if (deleteObjects) {
            long[] deleted = uploads.deleteAll();
            events.line("deleted what the run left under " + prefix + ": " + deleted[0] + " uploads aborted, "
                    + deleted[1] + " objects deleted");
        }
        List<CheckpointStats> all = collector.checkpoints().stream()
                .filter(c -> c.id() <= last.id())
                .toList();
        return new RunResult(
                watch.jobId(),
                startMillis,
                job.totalRecords(),
                sink.distinct(),
                expected.keys(),
                liveDigest,
                seconds,
                seconds,
                all,
                restore);
    }

    /** Waits (up to two checkpoint intervals) for a checkpoint in progress, stops the TaskManager, awaits the restore. */
    private SoakOutcome.Kill killDuringCheckpoint(
            LocalFlinkCluster cluster, FlinkRestClient rest, JobWatch watch, RunEvents events) throws Exception {
        long waitUntil = System.nanoTime()
                + job.checkpointInterval()
                        .plus(job.minPause())
                        .multipliedBy(2)
                        .plusSeconds(10)
                        .toNanos();
        long inProgress = 0;
        while (System.nanoTime() < waitUntil) {
            inProgress = checkpointInProgress(rest.checkpoints(watch.jobId()));
            if (inProgress > 0) {
                break;
            }
            Thread.sleep(50);
        }
        long killedAt = System.currentTimeMillis();
        long killedNanos = System.nanoTime();
        cluster.replaceTaskManager();
        events.line("TaskManager stopped" + (inProgress > 0 ? " during checkpoint " + inProgress : "")
                + "; a new one started");
        long deadline = killedNanos + RECOVERY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Thread.sleep(POLL.toMillis());
            JsonNode state = watch.job();
            watch.requireAlive(state);
            JsonNode restored = rest.checkpoints(watch.jobId()).path("latest").path("restored");
            long restoredAt = restored.path("restore_timestamp").asLong(0);
            Map<String, String> accumulators = watch.accumulators();
            if (restoredAt >= killedAt
                    && "RUNNING".equals(state.path("state").asString(""))
                    && watch.accumulator(accumulators, JobAccumulators.RESTORE_VERIFIED_SUBTASKS)
                            >= job.parallelism()) {
                long recoveryMs = (System.nanoTime() - killedNanos) / 1_000_000;
                long restoredId = restored.path("id").asLong(0);
                events.line(
                        "restored checkpoint " + restoredId + " and verified it " + recoveryMs + " ms after the stop");
                return new SoakOutcome.Kill(killedAt, inProgress, restoredId, recoveryMs, true);
            }
        }
        events.line("the job did not restore and verify its state within " + RECOVERY_TIMEOUT.toMinutes() + " min");
        return new SoakOutcome.Kill(killedAt, inProgress, 0, -1, false);
    }

    private Path histogramFile(String moment) {
        String name = soakResultFile.getFileName().toString().replaceAll("\\.json$", "");
        return soakResultFile.resolveSibling(name + "-histogram-" + moment + ".txt");
    }

    private static long checkpointInProgress(JsonNode checkpoints) {
        for (JsonNode entry : checkpoints.path("history")) {
            if (CheckpointStats.IN_PROGRESS.equals(entry.path("status").asString(""))) {
                return entry.path("id").asLong(0);
            }
        }
        return 0;
    }

    private Map<String, String> flinkEntries() throws IOException {
        Map<String, String> entries = run.flinkEntries();
        if (attemptTimeout != null && !attemptTimeout.isZero()) {
            entries.putIfAbsent("s3.request.attempt-timeout", attemptTimeout.toMillis() + " ms");
        }
        return entries;
    }

    private static String hex(long digest) {
        return String.format("%016x", digest);
    }
}
