package dev.flinks3.bench.soak;

import dev.flinks3.bench.checkpoint.job.DurationConverter;
import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.local.ContenderJvmOptions;
import dev.flinks3.bench.checkpoint.local.LocalFlinkCluster;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.PluginMBeans;
import dev.flinks3.bench.checkpoint.results.PluginMetrics;
import dev.flinks3.bench.checkpoint.results.RunResult;
import dev.flinks3.bench.checkpoint.run.RunEvents;
import dev.flinks3.bench.checkpoint.run.RunOutcome;
import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.PluginInfo;
import dev.flinks3.bench.common.ProcessMeter;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
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
import org.apache.flink.configuration.ConfigConstants;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.core.plugin.PluginUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * One soak run in a JVM of its own, started by {@link SoakCommand} through the local runner's session (the same
 * arguments as {@code run-contender}, and the soak's after them). Loads the one plugin under {@code
 * $FLINK_PLUGINS_DIR} (for its own reads of the sink's files), starts the {@link SoakCluster} (a MiniCluster in this
 * JVM, or JobManager and TaskManager processes of a Flink installation with the same plugins folder) and runs the
 * soak's {@link SoakJob}s with restarts allowed, until every record is in every job's state. Meanwhile it samples
 * every Flink process ({@link SoakSampler}) and the uploads open at the server ({@link ServerUploads}), and every
 * {@code --kill-interval} stops a TaskManager while the main job's checkpoint is in progress and waits for every job
 * to restore from its latest checkpoint and verify it; no stop comes after the sources' duration, so a job slowed by
 * the stops finishes its last records without more. At the end: a checkpoint after the last record, the jobs
 * cancelled, a restore of each job's last checkpoint verified against its {@link ExpectedState}, every record checked
 * exactly once in the sink's committed files ({@link SinkVerification}), and the multipart uploads left at the server
 * counted. Writes a {@link ContenderResult} (the main job's) to {@code --result} and a {@link SoakOutcome} to {@code
 * --soak-result}.
 */
@Command(name = "run-soak", hidden = true, description = "Runs one soak in this JVM (started by soak).")
public final class RunSoakCommand implements Callable<Integer> {

    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration RECOVERY_TIMEOUT = Duration.ofMinutes(5);

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

    @Option(names = "--flink-home")
    Path flinkHome;

    @Option(names = "--task-managers", defaultValue = "2")
    int taskManagers;

    @Option(names = "--cluster-jvm-option")
    List<String> clusterJvmOptions = new ArrayList<>();

    @Option(names = "--forst-job", defaultValue = "false", arity = "1")
    boolean forStJob;

    private final List<SoakSample> samples = Collections.synchronizedList(new ArrayList<>());
    private final List<ServerSample> server = Collections.synchronizedList(new ArrayList<>());
    private final List<SoakOutcome.Kill> kills = Collections.synchronizedList(new ArrayList<>());
    private final List<SoakJob> jobs = new ArrayList<>();
    private String stopDescription = "none";
    private SoakOutcome.UploadsAtEnd uploadsAtEnd;
    private volatile long soakEnd;
    private final ProcessCensus census = new ProcessCensus();
    private int endpointPort;

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
        PluginInfo[] plugin = {PluginInfo.notLoaded(run.contender(), run.pluginJar())};
        RunOutcome outcome = RunOutcome.of(() -> {
            PluginManager plugins = PluginUtils.createPluginManagerFromRootFolder(conf);
            FileSystem.initialize(conf, plugins);
            plugin[0] = PluginInfo.loaded(run.contender(), run.pluginJar(), run.checkpointDirectory());
            events.line("plugin " + plugin[0].jar() + " " + plugin[0].version() + ": served by "
                    + plugin[0].fileSystemClass());
            return runSoak(conf, entries, tmp, plugins, events);
        });
        if (outcome.failed()) {
            events.line("FAILED: " + outcome.error());
        }
        ProcessMeter.Sample jvm = meter.stop();
        meter.close();
        PluginMetrics metrics = null;
        if (flinkHome == null) {
            try {
                metrics = PluginMBeans.platform().read();
            } catch (Exception e) {
                events.line("could not read the plugin's metrics MBeans: " + e);
            }
        }
        Json.write(
                run.resultFile(),
                new ContenderResult(
                        plugin[0],
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
        List<ServerSample> serverNow;
        synchronized (server) {
            serverNow = List.copyOf(server);
        }
        List<SoakOutcome.Kill> killsNow;
        synchronized (kills) {
            killsNow = List.copyOf(kills);
        }
        List<SoakOutcome.JobOutcome> jobsNow = new ArrayList<>();
        synchronized (jobs) {
            jobs.forEach(j -> jobsNow.add(j.outcome()));
        }
        return new SoakOutcome(samplesNow, serverNow, jobsNow, killsNow, uploadsAtEnd, stopDescription, error, soakEnd);
    }

    private void sampleAndSave(SoakCluster cluster, SoakSampler sampler, ServerUploads uploads) {
        try {
            for (SampledProcess process : cluster.processes()) {
                samples.add(sampler.sample(process));
            }
            server.add(uploads.sample());
            Json.write(soakResultFile, outcome("in progress: the run did not reach its end checks"));
        } catch (IOException | RuntimeException e) {
            // The next sample writes again; the end writes the final outcome.
        }
    }

    private RunResult runSoak(
            Configuration conf, Map<String, String> entries, Path tmp, PluginManager plugins, RunEvents events)
            throws Exception {
        String bucket = run.checkpointDirectory().getHost();
        String prefix = run.checkpointDirectory().getPath().replaceAll("^/+", "") + "/";
        URI endpoint = URI.create(entries.getOrDefault("s3.endpoint", "https://s3.amazonaws.com"));
        int port = endpoint.getPort() > 0 ? endpoint.getPort() : "https".equals(endpoint.getScheme()) ? 443 : 80;
        endpointPort = port;
        List<JobParameters> parameters = new ArrayList<>(List.of(job));
        if (forStJob) {
            parameters.add(SoakCommand.forStJob(job));
        }
        int slots = parameters.stream().mapToInt(JobParameters::parallelism).sum();
        try (ServerUploads uploads = new ServerUploads(entries, bucket, prefix);
                SoakCluster cluster = startCluster(conf, entries, tmp, plugins, parameters, slots, events)) {
            stopDescription = killInterval.isZero() ? "none" : cluster.stopDescription();
            FlinkRestClient rest = new FlinkRestClient(cluster.restAddress());
            synchronized (jobs) {
                for (JobParameters p : parameters) {
                    boolean main = jobs.isEmpty();
                    jobs.add(new SoakJob(
                            main ? "main" : "forst",
                            p,
                            run.checkpointDirectory().toString(),
                            main,
                            cluster.environments(),
                            rest));
                }
            }
            SoakSampler sampler = new SoakSampler(port, SoakSampler.TEMPORARY_FILE_MIN_AGE);
            ScheduledExecutorService sampling = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "soak-sampler");
                thread.setDaemon(true);
                return thread;
            });
            sampling.scheduleAtFixedRate(
                    () -> sampleAndSave(cluster, sampler, uploads),
                    0,
                    sampleInterval.toMillis(),
                    TimeUnit.MILLISECONDS);
            try {
                return runJobs(cluster, rest, uploads, prefix, events);
            } finally {
                sampling.shutdown();
                sampling.awaitTermination(1, TimeUnit.MINUTES);
            }
        }
    }

    private SoakCluster startCluster(
            Configuration conf,
            Map<String, String> entries,
            Path tmp,
            PluginManager plugins,
            List<JobParameters> parameters,
            int slots,
            RunEvents events)
            throws Exception {
        if (flinkHome == null) {
            return new MiniSoakCluster(
                    LocalFlinkCluster.start(conf, slots, MemorySize.parse(run.managedMemory()), plugins), List.of(tmp));
        }
        String pluginsRoot = System.getenv(ConfigConstants.ENV_FLINK_PLUGINS_DIR);
        if (pluginsRoot == null) {
            throw new IllegalStateException(ConfigConstants.ENV_FLINK_PLUGINS_DIR + " is not set: run-soak is started"
                    + " by soak with the contender's plugins folder");
        }
        Map<String, String> configuration = new java.util.LinkedHashMap<>(entries);
        configuration.put("taskmanager.memory.managed.size", run.managedMemory());
        int slotsPerTaskManager = (int) Math.ceil((double) slots / taskManagers);
        return ProcessCluster.start(
                new ProcessCluster.Settings(
                        flinkHome,
                        Path.of(pluginsRoot),
                        run.workDir().resolve("cluster"),
                        configuration,
                        taskManagers,
                        slotsPerTaskManager,
                        clusterJvmOptions,
                        List.of(jobJar())),
                events);
    }

    /** The jar holding the job's classes: this jar, which the TaskManagers load the job from. */
    private static Path jobJar() throws URISyntaxException {
        return Path.of(SoakJob.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    }

    private RunResult runJobs(
            SoakCluster cluster, FlinkRestClient rest, ServerUploads uploads, String prefix, RunEvents events)
            throws Exception {
        long start = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        for (SoakJob soakJob : jobs) {
            soakJob.submit(events);
        }
        SoakJob main = jobs.get(0);
        Duration limit = job.duration().multipliedBy(3).plusMinutes(10);
        long nextKill = killInterval.isZero() ? Long.MAX_VALUE : start + killInterval.toNanos();
        long nextProgress = start;
        while (true) {
            Thread.sleep(POLL.toMillis());
            boolean done = true;
            for (SoakJob soakJob : jobs) {
                done &= soakJob.poll(events);
            }
            long now = System.nanoTime();
            if (now >= nextProgress) {
                StringBuilder line = new StringBuilder(String.format(
                        "soak %d s: %d TaskManagers stopped, %d samples",
                        (now - start) / 1_000_000_000L, kills.size(), samples.size()));
                for (SoakJob soakJob : jobs) {
                    long[] counts = soakJob.checkpointCounts();
                    line.append("; ")
                            .append(soakJob.name())
                            .append(": ")
                            .append(counts[0])
                            .append(" checkpoints completed, ")
                            .append(counts[1])
                            .append(" failed");
                }
                events.line(line.toString());
                nextProgress = now + Duration.ofMinutes(1).toNanos();
            }
            if (done) {
                break;
            }
            // Each job must have checkpointed since the last stop's restore: else the stop restores nothing new.
            // No stop once the sources have emitted for the soak's duration: the jobs then only finish their records.
            if (now >= nextKill
                    && now - start < job.duration().toNanos()
                    && jobs.stream().allMatch(SoakJob::checkpointedSinceLastRestore)) {
                if (kills.isEmpty()) {
                    histograms(cluster, "first-stop", events);
                }
                takeCensus(cluster, "before stop " + (kills.size() + 1));
                kills.add(stopDuringCheckpoint(cluster, main, uploads, events));
                nextKill = System.nanoTime() + killInterval.toNanos();
                continue;
            }
            if (now - start > limit.toNanos()) {
                throw new IllegalStateException(
                        "the jobs did not reach their expected state digests in " + limit.toMinutes() + " min");
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        soakEnd = System.currentTimeMillis();
        histograms(cluster, "end", events);
        takeCensus(cluster, "end");
        for (SoakJob soakJob : jobs) {
            soakJob.cancel();
        }
        for (SoakJob soakJob : jobs) {
            soakJob.verifyAtEnd(events);
        }
        List<String> open = uploads.openUploadKeys();
        long sinkUploads = open.stream().filter(k -> k.contains("/sink/")).count();
        uploadsAtEnd = new SoakOutcome.UploadsAtEnd(
                open.size() - sinkUploads, sinkUploads, open.subList(0, Math.min(20, open.size())));
        events.line("multipart uploads open at the server under " + prefix + ": " + open.size());
        if (deleteObjects) {
            long[] deleted = uploads.deleteAll();
            events.line("deleted what the run left under " + prefix + ": " + deleted[0] + " uploads aborted, "
                    + deleted[1] + " objects deleted");
        }
        SoakJob.Result result = main.result();
        return new RunResult(
                main.jobId(),
                startMillis,
                main.parameters().totalRecords(),
                result.recordsInSink(),
                main.expectedKeys(),
                main.liveDigest(),
                seconds,
                seconds,
                result.checkpoints(),
                main.finalRestore());
    }

    /**
     * Waits (up to two checkpoint intervals) for a checkpoint of the main job in progress, stops a TaskManager,
     * remembers the uploads open at the server then, and awaits every job's restore and its verification.
     */
    private SoakOutcome.Kill stopDuringCheckpoint(
            SoakCluster cluster, SoakJob main, ServerUploads uploads, RunEvents events) throws Exception {
        long waitUntil = System.nanoTime()
                + job.checkpointInterval()
                        .plus(job.minPause())
                        .multipliedBy(2)
                        .plusSeconds(10)
                        .toNanos();
        long inProgress = 0;
        while (System.nanoTime() < waitUntil) {
            inProgress = main.checkpointInProgress();
            if (inProgress > 0) {
                break;
            }
            Thread.sleep(50);
        }
        long stoppedAt = System.currentTimeMillis();
        long stoppedNanos = System.nanoTime();
        String stopped = cluster.stopTaskManager();
        long openAtStop = uploads.recordStop();
        events.line((stopped.isEmpty() ? "the MiniCluster's TaskManager" : stopped) + " stopped"
                + (inProgress > 0 ? " during checkpoint " + inProgress : "") + "; " + openAtStop
                + " multipart uploads open at the server");
        long deadline = stoppedNanos + RECOVERY_TIMEOUT.toNanos();
        long[] restored = new long[jobs.size()];
        while (System.nanoTime() < deadline) {
            Thread.sleep(POLL.toMillis());
            boolean all = true;
            for (int i = 0; i < jobs.size(); i++) {
                if (restored[i] == 0) {
                    restored[i] = jobs.get(i).restoredAndVerifiedSince(stoppedAt);
                    jobs.get(i).restored(restored[i]);
                }
                all &= restored[i] > 0;
            }
            if (all) {
                long recoveryMs = (System.nanoTime() - stoppedNanos) / 1_000_000;
                events.line("every job restored (checkpoints " + java.util.Arrays.toString(restored) + ") and verified "
                        + recoveryMs + " ms after the stop");
                return new SoakOutcome.Kill(
                        stoppedAt, stopped, inProgress, toList(restored), recoveryMs, true, openAtStop);
            }
        }
        events.line("the jobs did not restore and verify their state within " + RECOVERY_TIMEOUT.toMinutes() + " min");
        return new SoakOutcome.Kill(stoppedAt, stopped, inProgress, toList(restored), -1, false, openAtStop);
    }

    private static List<Long> toList(long[] values) {
        List<Long> list = new ArrayList<>();
        for (long value : values) {
            list.add(value);
        }
        return list;
    }

    /** Every Flink process's threads by name pattern and connections to S3 by state ({@link ProcessCensus}). */
    private void takeCensus(SoakCluster cluster, String moment) {
        census.take(moment, cluster.processes(), endpointPort);
        census.write(soakResultFile.resolveSibling(
                soakResultFile.getFileName().toString().replaceAll("\\.json$", "") + "-census.md"));
    }

    /** The class histogram of every Flink process, at a moment of the soak. */
    private void histograms(SoakCluster cluster, String moment, RunEvents events) {
        String name = soakResultFile.getFileName().toString().replaceAll("\\.json$", "");
        for (SampledProcess process : cluster.processes()) {
            String file = name + "-histogram-" + moment
                    + (process.name().equals(MiniSoakCluster.PROCESS) ? "" : "-" + process.name()) + ".txt";
            ClassHistogram.write(soakResultFile.resolveSibling(file), process.pid(), events);
        }
    }

    private Map<String, String> flinkEntries() throws IOException {
        Map<String, String> entries = run.flinkEntries();
        if (attemptTimeout != null && !attemptTimeout.isZero()) {
            entries.putIfAbsent("s3.request.attempt-timeout", attemptTimeout.toMillis() + " ms");
        }
        return entries;
    }
}
