package dev.flinks3.bench.soak;

import dev.flinks3.bench.checkpoint.job.DurationConverter;
import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.local.BenchmarkSession;
import dev.flinks3.bench.checkpoint.local.CommandLines;
import dev.flinks3.bench.checkpoint.local.S3Options;
import dev.flinks3.bench.checkpoint.local.SessionOptions;
import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.common.Contender;
import dev.flinks3.bench.common.CpuPinning;
import dev.flinks3.bench.common.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The soak: the main job for {@code --soak-duration} on the embedded S3 server (with its network profile and the
 * faults asked for) or {@code --endpoint}, through the local runner's session and contender JVM, with TaskManagers
 * stopped at intervals, sampling every Flink process over time ({@link RunSoakCommand}), and a report that holds each
 * figure to the rules fixed before the run ({@link SoakReport}, {@link SoakRules}). The cluster is a MiniCluster in
 * the contender JVM, or with {@code --flink-home} a JobManager and TaskManager processes of that Flink installation,
 * whose TaskManagers are killed with {@code kill -9} ({@link ProcessCluster}). Exit code 0 when every check held, 1
 * otherwise.
 */
@Command(
        name = "soak",
        mixinStandardHelpOptions = true,
        description = "Runs the job for a long time under faults and TaskManager stops (kill -9 of TaskManager"
                + " processes with --flink-home), samples what could grow in every Flink process (heap, threads,"
                + " descriptors, connections, temporary files, open uploads, the plugin's buffers and pools), verifies"
                + " every record at the end and writes soak-report.md, judged by rules fixed in advance"
                + " (docs/soak.md).")
public final class SoakCommand implements Callable<Integer> {

    /**
     * The job's figures for a soak unless given: 768 keys x 64 KiB (48 MiB of state: a full checkpoint's stream of
     * each of the two subtasks is 24 MiB, three parts of the plugin's 8 MiB), a checkpoint every 5 s.
     */
    private static final Map<String, String> SOAK_JOB_DEFAULTS = Map.of(
            "--target-state-gb", "0.046875",
            "--checkpoint-interval", "5s");

    @Mixin
    JobParameters job = new JobParameters();

    @Mixin
    S3Options s3 = new S3Options();

    @Mixin
    SessionOptions session = new SessionOptions();

    @Option(
            names = "--contender",
            defaultValue = Contender.OURS,
            description = "The plugin (default: ${DEFAULT-VALUE}); the soak reads this repository's plugin's MBeans.")
    String contender;

    @Option(
            names = "--soak-duration",
            defaultValue = "3min",
            converter = DurationConverter.class,
            description = "How long the source emits records, e.g. 3min, 2h (default: ${DEFAULT-VALUE}); it replaces"
                    + " the job's --duration.")
    Duration soakDuration;

    @Option(
            names = "--sample-interval",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "Time between samples; each asks every Flink process for a full garbage collection"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration sampleInterval;

    @Option(
            names = "--kill-interval",
            defaultValue = "1min",
            converter = DurationConverter.class,
            description = "Time between TaskManager stops, each while a checkpoint is in progress, within"
                    + " --soak-duration (the jobs then finish their last records without stops); 0 for none"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration killInterval;

    @Option(
            names = "--attempt-timeout",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "With --s3-slow-answers: s3.request.attempt-timeout of the plugin unless given with -D,"
                    + " shorter than --s3-slow-answer-time so a slow answer makes it retry (default: ${DEFAULT-VALUE});"
                    + " without slow answers the plugin keeps its own.")
    Duration attemptTimeout;

    @Option(
            names = "--rules",
            defaultValue = "publication",
            description = "The limits the figures are held to: publication (runs of an hour or more) or short (CI's"
                    + " run of a few minutes); docs/soak.md lists both (default: ${DEFAULT-VALUE}).")
    String rules;

    @Option(
            names = "--p99-factor",
            defaultValue = "1.2",
            description = "The last third's checkpoint duration p99 may be at most this many times the first third's"
                    + " (default: ${DEFAULT-VALUE}).")
    double p99Factor;

    @Option(
            names = "--warm-up-time",
            converter = DurationConverter.class,
            description = "Samples this long after the first are left out of the slopes (default: a tenth of the"
                    + " soak, at least 30 s).")
    Duration warmUpTime;

    @Option(
            names = "--flink-home",
            paramLabel = "DIR",
            description = "Run the jobs on a standalone cluster of processes from this Flink installation's lib/"
                    + " (of this jar's Flink version), the plugin in its own plugins folder, and stop TaskManagers with"
                    + " kill -9; without it, a MiniCluster in the contender JVM whose TaskManager is replaced.")
    Path flinkHome;

    @Option(
            names = "--task-managers",
            defaultValue = "2",
            description = "With --flink-home: TaskManager processes; taskmanager-0 is never killed when there are two"
                    + " or more (default: ${DEFAULT-VALUE}).")
    int taskManagers;

    @Option(
            names = "--cluster-jvm-option",
            paramLabel = "OPTION",
            description = "With --flink-home: an option of every JobManager and TaskManager JVM (repeatable).")
    List<String> clusterJvmOptions = new ArrayList<>();

    @Option(
            names = "--forst-job",
            description = "Also run a second job on ForSt (its SST files on s3://, no local file cache, so its state"
                    + " is read through positional reads), stopped and verified with the main job.")
    boolean forStJob;

    @Option(
            names = "--keep-objects",
            description = "With --endpoint: leave the run's checkpoints, sink files and open uploads at the store"
                    + " (without it they are deleted and aborted at the end; the embedded server's go with the"
                    + " work folder).")
    boolean keepObjects;

    @Option(
            names = "--report-only",
            paramLabel = "DIR",
            description = "Run nothing: write DIR's soak-report.md again from its results.json and"
                    + " contenders/<contender>-soak.json, with this command's rules.")
    Path reportOnly;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        SoakRules soakRules = SoakRules.named(rules);
        if (!(p99Factor >= 1)) {
            throw new IllegalArgumentException("--p99-factor must be 1 or more, was " + p99Factor);
        }
        if (sampleInterval.toMillis() < 1000) {
            throw new IllegalArgumentException("--sample-interval must be at least 1s, was " + sampleInterval);
        }
        if (killInterval.isNegative()) {
            throw new IllegalArgumentException("--kill-interval must not be negative, was " + killInterval);
        }
        if (taskManagers < 1) {
            throw new IllegalArgumentException("--task-managers must be 1 or more, was " + taskManagers);
        }
        if (flinkHome != null) {
            ProcessCluster.classPath(flinkHome);
        }
        if (reportOnly != null) {
            return report(
                    reportOnly,
                    Json.read(reportOnly.resolve("results.json"), BenchmarkResults.class),
                    reportOnly.resolve("contenders").resolve(contender + "-soak.json"),
                    soakRules);
        }
        JobParameters soakJob = soakJob();
        BenchmarkSession benchmark = session.session(
                "soak", soakJob, s3, List.of(contender), 1, false, CpuPinning.forThisMachine(false), spec);
        Path output = benchmark.output();
        Path soakResult = output.resolve("contenders").resolve(contender + "-soak.json");
        List<String> arguments = new ArrayList<>(List.of(
                "--soak-result",
                soakResult.toString(),
                "--sample-interval",
                sampleInterval.toMillis() + "ms",
                "--kill-interval",
                killInterval.toMillis() + "ms",
                // Only slow answers need a short attempt timeout; a real store keeps the plugin's.
                "--attempt-timeout",
                slowAnswers() ? attemptTimeout.toMillis() + "ms" : "0ms",
                "--delete-objects",
                Boolean.toString(s3.endpoint() != null && !keepObjects),
                "--forst-job",
                Boolean.toString(forStJob),
                "--task-managers",
                Integer.toString(taskManagers)));
        if (flinkHome != null) {
            arguments.addAll(List.of("--flink-home", flinkHome.toAbsolutePath().toString()));
        }
        for (String option : clusterJvmOptions) {
            arguments.add("--cluster-jvm-option=" + option);
        }
        benchmark.withChildCommand("run-soak", arguments);
        return report(output, benchmark.run(), soakResult, soakRules);
    }

    private int report(Path output, BenchmarkResults results, Path soakResult, SoakRules soakRules)
            throws java.io.IOException {
        if (!Files.isRegularFile(soakResult)) {
            System.out.println("soak: the run wrote no soak results; see " + output.resolve("logs"));
            return 1;
        }
        SoakOutcome outcome = Json.read(soakResult, SoakOutcome.class);
        Duration warmUp =
                warmUpTime != null ? warmUpTime : Duration.ofMillis(Math.max(30_000, soakDuration.toMillis() / 10));
        List<JobParameters> jobs = new ArrayList<>(List.of(soakJob()));
        if (forStJob) {
            jobs.add(forStJob(jobs.get(0)));
        }
        SoakReport.Bounds bounds =
                new SoakReport.Bounds(soakRules, p99Factor, warmUp.toMillis(), SoakReport.uploadsOneStopCanLeave(jobs));
        SoakReport report = new SoakReport(outcome, results, bounds);
        Path written = report.write(output, CommandLines.describe(spec));
        System.out.println("soak report: " + written.toAbsolutePath());
        if (!report.passed()) {
            report.failures().forEach(f -> System.out.println("soak check failed: " + f));
        }
        return report.passed() ? 0 : 1;
    }

    private boolean slowAnswers() {
        return s3.embedded() && s3.faultProfile() != null && s3.faultProfile().slowRate() > 0;
    }

    /** The job's parameters with the soak's duration, and the soak's state and interval unless given. */
    JobParameters soakJob() {
        Map<String, String> map = job.toMap();
        map.put("duration", soakDuration.toMillis() + "ms");
        var parsed = spec.commandLine().getParseResult();
        if (!parsed.hasMatchedOption("--target-state-gb") && !parsed.hasMatchedOption("--num-keys")) {
            map.put("targetStateGb", SOAK_JOB_DEFAULTS.get("--target-state-gb"));
        }
        if (!parsed.hasMatchedOption("--checkpoint-interval")) {
            map.put("checkpointInterval", SOAK_JOB_DEFAULTS.get("--checkpoint-interval"));
        }
        return JobParameters.fromMap(map).validate();
    }

    /**
     * The ForSt job of {@code --forst-job}, beside {@code main}: the same duration, parallelism and checkpoint
     * interval at half the rate (with no file cache on {@code wan}, ForSt kept about 95 of 100 records/s on a 2-core
     * machine, so at the main job's rate it fell behind with every stop and ended long after it), 2,048 keys x 64
     * KiB (128 MiB of state, more than the block cache its managed memory gives it), ForSt's SST files under the job's checkpoint folder and no local file cache: every read the block cache
     * misses is a positional read through the plugin. (ForSt 2.3.0's file cache can also corrupt a checkpoint's copy
     * of an SST it evicts mid-copy; without the cache that cannot happen.)
     */
    static JobParameters forStJob(JobParameters main) {
        Map<String, String> map = main.toMap();
        map.put("state-backend", "forst");
        map.put("forst-cache-size", "0");
        map.put("recordsPerSecond", Double.toString(main.recordsPerSecond() / 2));
        map.put("numKeys", "2048");
        map.put("valueSizeKb", "64");
        map.put("targetStateGb", "0.125");
        return JobParameters.fromMap(map).validate();
    }
}
