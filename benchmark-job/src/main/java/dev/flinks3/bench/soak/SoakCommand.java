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
 * stopped at intervals, sampling the process over time ({@link RunSoakCommand}), and a report that says for each
 * figure whether it grew ({@link SoakReport}). Exit code 0 when every check held, 1 otherwise.
 */
@Command(
        name = "soak",
        mixinStandardHelpOptions = true,
        description = "Runs the job for a long time under faults and TaskManager stops, samples what could grow"
                + " (heap, buffers, connections, threads, descriptors, temporary files, open uploads), verifies"
                + " every record at the end and writes soak-report.md with a chart per figure.")
public final class SoakCommand implements Callable<Integer> {

    /** The job's figures for a soak unless given: 256 keys x 64 KiB (16 MiB of state), a checkpoint every 3 s. */
    private static final Map<String, String> SOAK_JOB_DEFAULTS = Map.of(
            "--target-state-gb", "0.015625",
            "--checkpoint-interval", "3s");

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
            description = "Time between samples; each asks for a full garbage collection (default: ${DEFAULT-VALUE}).")
    Duration sampleInterval;

    @Option(
            names = "--kill-interval",
            defaultValue = "1min",
            converter = DurationConverter.class,
            description = "Time between TaskManager stops, each while a checkpoint is in progress; 0 for none"
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
            names = "--flat-tolerance",
            defaultValue = "0.10",
            description = "A figure grew if its last third's mean exceeds its first third's by more than this fraction"
                    + " (plus its noise floor) and so do its fitted line and its median (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(
            names = "--p99-factor",
            defaultValue = "1.2",
            description = "The last third's checkpoint duration p99 may be at most this many times the first third's"
                    + " (default: ${DEFAULT-VALUE}).")
    double p99Factor;

    @Option(
            names = "--warm-up-time",
            converter = DurationConverter.class,
            description = "Samples this long after the first are left out of the trends (default: a tenth of the"
                    + " soak, at least 30 s).")
    Duration warmUpTime;

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
                    + " contenders/<contender>-soak.json, with this command's bounds.")
    Path reportOnly;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!(tolerance >= 0)) {
            throw new IllegalArgumentException("--flat-tolerance must be 0 or more, was " + tolerance);
        }
        if (!(p99Factor >= 1)) {
            throw new IllegalArgumentException("--p99-factor must be 1 or more, was " + p99Factor);
        }
        if (sampleInterval.toMillis() < 1000) {
            throw new IllegalArgumentException("--sample-interval must be at least 1s, was " + sampleInterval);
        }
        if (killInterval.isNegative()) {
            throw new IllegalArgumentException("--kill-interval must not be negative, was " + killInterval);
        }
        if (reportOnly != null) {
            return report(
                    reportOnly,
                    Json.read(reportOnly.resolve("results.json"), BenchmarkResults.class),
                    reportOnly.resolve("contenders").resolve(contender + "-soak.json"));
        }
        JobParameters soakJob = soakJob();
        BenchmarkSession benchmark = session.session(
                "soak", soakJob, s3, List.of(contender), 1, false, CpuPinning.forThisMachine(false), spec);
        Path output = benchmark.output();
        Path soakResult = output.resolve("contenders").resolve(contender + "-soak.json");
        benchmark.withChildCommand(
                "run-soak",
                List.of(
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
                        Boolean.toString(s3.endpoint() != null && !keepObjects)));
        return report(output, benchmark.run(), soakResult);
    }

    private int report(Path output, BenchmarkResults results, Path soakResult) throws java.io.IOException {
        if (!Files.isRegularFile(soakResult)) {
            System.out.println("soak: the run wrote no soak results; see " + output.resolve("logs"));
            return 1;
        }
        SoakOutcome outcome = Json.read(soakResult, SoakOutcome.class);
        Duration warmUp =
                warmUpTime != null ? warmUpTime : Duration.ofMillis(Math.max(30_000, soakDuration.toMillis() / 10));
        SoakReport.Bounds bounds = new SoakReport.Bounds(
                tolerance,
                p99Factor,
                warmUp.toMillis(),
                SoakReport.uploadsOneStopCanLeave(
                        soakJob().parallelism(), soakJob().rocksDbTransferThreads()));
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

    /** The job's parameters with the soak's duration, and the soak's smaller state and interval unless given. */
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
}
