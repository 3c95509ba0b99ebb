package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.PluginMetrics;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import dev.flinks3.bench.checkpoint.results.RunConfiguration;
import dev.flinks3.bench.checkpoint.results.S3Faults;
import dev.flinks3.bench.checkpoint.results.S3Traffic;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import dev.flinks3.bench.checkpoint.stats.CheckpointSummary;
import dev.flinks3.bench.checkpoint.stats.Distribution;
import dev.flinks3.bench.checkpoint.stats.SizeRangeRow;
import dev.flinks3.bench.checkpoint.stats.Units;
import dev.flinks3.bench.common.MarkdownTable;
import dev.flinks3.bench.common.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The text of {@code report.md}: configuration (one column per results file when several are compared), a
 * summary with one column per run, the comparison (when several contenders ran), the charts, and per run the
 * duration and state-size percentiles, throughput by state-size range, every checkpoint (failed ones
 * included), the restore, the S3 requests (as the embedded server saw them, and as the plugin counted them
 * where it has metrics of its own) and the plugin's own metrics. Every figure is computed from the same
 * {@link BenchmarkResults} that {@code results.json} holds; a figure a run did not measure is {@code -}, and
 * a row or section no run measured is left out. MB = 10^6 bytes; the job's {@code valueSizeKb} is KiB and
 * {@code targetStateGb} GiB, as its options say.
 */
final class MarkdownReport {

    static final String UNITS = "Units: MB = 10^6 bytes, MB/s = 10^6 bytes per second, s = seconds; the job's "
            + "`valueSizeKb` is in KiB (1,024 bytes) and `targetStateGb` in GiB (2^30 bytes).";

    private final ResultsSet results;
    private final List<RunFigures> runs;
    private final Comparison comparison;
    private final List<String> charts;

    MarkdownReport(ResultsSet results, List<RunFigures> runs, Comparison comparison, List<String> charts) {
        this.results = results;
        this.runs = runs;
        this.comparison = comparison;
        this.charts = charts;
    }

    String render() {
        StringBuilder md = new StringBuilder();
        md.append("# Large-state checkpoint benchmark\n\n");
        if (results.combined()) {
            md.append(sources());
        } else {
            md.append(source(results.sources().values().iterator().next()));
        }
        md.append(UNITS).append("\n\n");
        md.append(new ParameterTable(results.sources()).render());
        results.sources().values().stream()
                .map(r -> JobShape.describe(r.configuration()))
                .filter(shape -> !shape.isEmpty())
                .distinct()
                .forEach(shape -> md.append('\n').append(shape).append('\n'));
        md.append("\n## Summary\n\n").append(summary());
        if (results.contenders().size() > 1) {
            md.append("\n## Comparison\n\n").append(comparison());
        }
        if (runs.stream().anyMatch(r -> r.restore() != null)) {
            md.append("\n## Restore and rescale\n\n").append(rescale());
        }
        md.append("\n## Charts\n\n");
        md.append("Failed checkpoints are crosses in their run's colour; a contender has one colour in every chart, "
                + "its rounds differ by marker and shade. Time is counted from the job's start to each "
                + "checkpoint's trigger.\n\n");
        charts.forEach(
                c -> md.append("![").append(c).append("](charts/").append(c).append(")\n\n"));
        for (RunFigures run : runs) {
            md.append("\n## Run: ").append(run.label()).append("\n\n").append(details(run));
        }
        return md.toString();
    }

    /** Date, machine, command and S3 target of one results file. */
    private static String source(BenchmarkResults results) {
        StringBuilder md = new StringBuilder();
        RunConfiguration conf = results.configuration();
        md.append(String.format(
                Locale.ROOT,
                "%s on %s, %s, %d cores, %.1f GB memory, Java %s.%n%n",
                results.date(),
                results.machine().os(),
                results.machine().arch(),
                results.machine().cores(),
                results.machine().memoryBytes() / 1e9,
                results.machine().java()));
        md.append("Command: `").append(conf.command()).append("`\n\n");
        md.append(String.format(
                Locale.ROOT,
                "S3: %s (profile `%s`), bucket `%s`. Job: %d keys, %d records, "
                        + "%s of values at the end; %s%d round(s).%n%n",
                conf.endpoint(),
                conf.s3Profile(),
                conf.bucket(),
                conf.keyCount(),
                conf.totalRecords(),
                Units.formatMegabytes(conf.expectedStateBytes()),
                conf.restoreParallelism() > 0 ? "restore at parallelism " + conf.restoreParallelism() + "; " : "",
                conf.rounds()));
        if (conf.serverSetup() != null) {
            md.append("S3 server: ").append(conf.serverSetup()).append(".\n\n");
        }
        if (results.s3Faults() != null) {
            md.append(faults(results.s3Faults()));
        }
        return md.toString();
    }

    /** One row per results file compared. */
    private String sources() {
        MarkdownTable table = new MarkdownTable(List.of("results", "date", "machine", "S3", "runs", "command"));
        results.sources()
                .forEach((name, r) -> table.row(List.of(
                        name,
                        r.date(),
                        String.format(
                                Locale.ROOT,
                                "%s, %d cores, %.1f GB",
                                r.machine().arch(),
                                r.machine().cores(),
                                r.machine().memoryBytes() / 1e9),
                        r.configuration().endpoint() + " (" + r.configuration().s3Profile() + ")",
                        String.join(
                                ", ",
                                r.contenders().stream()
                                        .map(c -> c.plugin().name())
                                        .toList()),
                        "`" + r.configuration().command() + "`")));
        StringBuilder md =
                new StringBuilder("Compared from " + results.sources().size() + " results files; a "
                        + "contender found in several counts each file's runs as further rounds.\n\n");
        md.append(table).append('\n');
        results.sources().forEach((name, r) -> {
            if (r.s3Faults() != null) {
                md.append(name).append(": ").append(faults(r.s3Faults()));
            }
        });
        return md.toString();
    }

    private static String faults(S3Faults faults) {
        return String.format(
                Locale.ROOT,
                "S3 faults (embedded server, seed %d): %.2f%% of signed requests answered "
                        + "with 500 or 503, %.2f%% with the connection closed; injected %d (500 InternalError %d, "
                        + "503 SlowDown %d, connection closed %d).%n%n",
                faults.seed(),
                faults.errorRate() * 100,
                faults.resetRate() * 100,
                faults.injected(),
                faults.internalErrors(),
                faults.slowDowns(),
                faults.resets());
    }

    private String summary() {
        List<String> header = new ArrayList<>(List.of("figure"));
        runs.forEach(r -> header.add(r.label()));
        MarkdownTable table = new MarkdownTable(header);
        row(
                table,
                "plugin",
                r -> r.result().plugin().jar().isEmpty()
                        ? "-"
                        : (r.result().plugin().jar() + " " + r.result().plugin().version()).trim());
        row(table, "checkpoints completed", r -> Integer.toString(r.summary().completed()));
        row(table, "checkpoints failed", r -> Integer.toString(r.summary().failed()));
        row(table, "checkpointing phase (s)", MarkdownReport::checkpointingSeconds);
        row(table, "completed checkpoints per minute", MarkdownReport::checkpointsPerMinute);
        checkpointRow(table, "max state (MB)", r -> mb(r.summary().maxStateBytes()));
        checkpointRow(
                table, "avg duration (s)", r -> seconds(r.summary().durationMs().avg()));
        checkpointRow(
                table, "p50 duration (s)", r -> seconds(r.summary().durationMs().p50()));
        checkpointRow(
                table, "p90 duration (s)", r -> seconds(r.summary().durationMs().p90()));
        checkpointRow(
                table, "p99 duration (s)", r -> seconds(r.summary().durationMs().p99()));
        checkpointRow(table, "avg throughput (MB/s)", r -> decimal(r.summary().avgThroughputMbPerSecond()));
        if (runs.stream().anyMatch(r -> r.restore() != null)) {
            row(
                    table,
                    "restore: submission to all RUNNING (s)",
                    r -> r.hasRestoreTime() ? seconds(r.restoreMs()) : "-");
            row(table, "restore: read from S3 (MB)", r -> r.restoreBytesRead() > 0 ? mb(r.restoreBytesRead()) : "-");
            row(
                    table,
                    "restore verified",
                    r -> r.restore() == null ? "-" : r.restore().verified() ? "yes" : "no");
        }
        row(
                table,
                "records processed",
                r -> r.result().run() == null
                        ? "-"
                        : Long.toString(r.result().run().recordsProcessed()));
        row(table, "records/s processed", MarkdownReport::recordsPerSecond);
        row(table, "S3 bytes read per record (checkpointing)", MarkdownReport::bytesReadPerRecord);
        row(
                table,
                "objects created per checkpoint (server's log, directory markers included)",
                MarkdownReport::objectsPerCheckpoint);
        row(
                table,
                "contender JVM CPU (s)",
                r -> r.result().clientCpuSeconds() > 0 ? decimal(r.result().clientCpuSeconds()) : "-");
        row(table, "contender JVM CPU per GB checkpointed (s)", MarkdownReport::cpuPerCheckpointedGb);
        row(
                table,
                "S3 server CPU (s)",
                r -> r.result().serverCpuSeconds() > 0 ? decimal(r.result().serverCpuSeconds()) : "-");
        row(table, "S3 server core busy while checkpointing (%)", MarkdownReport::serverBusyWhileCheckpointing);
        pluginRow(table, "plugin: S3 requests", m -> Long.toString(m.requests()));
        pluginRow(table, "plugin: retries", m -> Long.toString(m.retries()));
        pluginRow(table, "plugin: throttled attempts", m -> Long.toString(m.throttledAttempts()));
        pluginRow(table, "plugin: uploaded (MB)", m -> mb(m.bytesUploaded()));
        pluginRow(table, "plugin: downloaded (MB)", m -> mb(m.bytesDownloaded()));
        pluginRow(table, "plugin: peak buffered (MB)", m -> mb(m.peakBufferedBytes()));
        row(table, "error", r -> r.result().error().isEmpty() ? "-" : r.result().error());
        return table.toString();
    }

    /** A summary row of the completed checkpoints' figures; "-" for a run that completed none. */
    private void checkpointRow(MarkdownTable table, String figure, Function<RunFigures, String> cell) {
        row(table, figure, r -> r.hasCheckpointFigures() ? cell.apply(r) : "-");
    }

    private String comparison() {
        MarkdownTable table = new MarkdownTable(List.of(
                "contender",
                "gate",
                "throughput (MB/s)",
                "p50 duration (ms)",
                "p90 duration (ms)",
                "p99 duration (ms)",
                "restore (ms)",
                "JVM CPU (s)"));
        for (Comparison.ContenderFigures c : comparison.contenders()) {
            table.row(List.of(
                    c.name(),
                    c.passed() ? "passed" : "FAILED: " + c.gateNote(),
                    Comparison.format(c.throughputMbPerSecond(), "%.1f"),
                    Comparison.format(c.p50DurationMs(), "%.0f"),
                    Comparison.format(c.p90DurationMs(), "%.0f"),
                    Comparison.format(c.p99DurationMs(), "%.0f"),
                    Comparison.format(c.restoreMs(), "%.0f"),
                    Comparison.format(c.cpuSeconds(), "%.1f")));
        }
        StringBuilder md = new StringBuilder(table.toString());
        md.append(String.format(
                Locale.ROOT,
                "%nMeans over rounds, (min–max) when rounds differ, ⚠ when they differ "
                        + "by more than %.2fx; - where no round measured the figure. Correctness gate: every record "
                        + "processed, the restore verified where the run restored, the same final state digest in every "
                        + "run.%n%n",
                Spread.FLAG_RATIO));
        comparison.ratioLines().forEach(line -> md.append("- ").append(line).append('\n'));
        return md.toString();
    }

    private String details(RunFigures run) {
        StringBuilder md = new StringBuilder();
        if (!run.result().plugin().jar().isEmpty()) {
            md.append("Plugin `")
                    .append(run.result().plugin().jar())
                    .append("` ")
                    .append(run.result().plugin().version());
            if (!run.result().plugin().fileSystemClass().isEmpty()) {
                md.append(", `s3://` served by `")
                        .append(run.result().plugin().fileSystemClass())
                        .append('`');
            }
            md.append(".\n\n");
        }
        if (!run.result().error().isEmpty()) {
            md.append("**Failed:** ").append(run.result().error()).append("\n\n");
        }
        CheckpointSummary s = run.summary();
        if (run.hasCheckpointFigures()) {
            MarkdownTable percentiles = new MarkdownTable(List.of("", "min", "p50", "p90", "p95", "p99", "max", "avg"));
            percentiles.row(distribution("duration (s)", s.durationMs(), v -> seconds(v)));
            percentiles.row(distribution("state size (MB)", s.stateSizeBytes(), v -> mb(v.longValue())));
            percentiles.row(distribution("checkpointed size (MB)", s.checkpointedSizeBytes(), v -> mb(v.longValue())));
            percentiles.row(distribution("throughput (MB/s)", s.throughputMbPerSecond(), MarkdownReport::decimal));
            md.append("### Checkpoint percentiles (completed checkpoints)\n\n")
                    .append(percentiles)
                    .append('\n');
            MarkdownTable ranges = new MarkdownTable(
                    List.of("state size (MB)", "checkpoints", "avg duration (s)", "throughput (MB/s)"));
            for (SizeRangeRow range : s.bySizeRange()) {
                ranges.row(List.of(
                        mb(range.lowerBytes()) + " – " + mb(range.upperBytes()),
                        Integer.toString(range.checkpoints()),
                        range.checkpoints() > 0 ? seconds(range.avgDurationMs()) : "-",
                        range.checkpoints() > 0 ? decimal(range.throughputMbPerSecond()) : "-"));
            }
            md.append("### Throughput by state size\n\n").append(ranges).append('\n');
        }
        if (!run.checkpoints().isEmpty()) {
            md.append("### Checkpoints\n\n").append(checkpoints(run)).append('\n');
        }
        RestoreResult restore = run.restore();
        if (restore != null) {
            md.append("### Restore\n\n")
                    .append(new MarkdownTable(List.of("figure", "value"))
                            .row(List.of(
                                    "checkpoint", restore.checkpointId() + " (`" + restore.checkpointPath() + "`)"))
                            .row(List.of("parallelism", Integer.toString(restore.parallelism())))
                            .row(List.of(
                                    "submission to all subtasks RUNNING, JobManager clock (s)",
                                    positiveSeconds(restore.jobManagerRestoreMs())))
                            .row(List.of(
                                    "submission to all subtasks RUNNING, seen by the client (s)",
                                    positiveSeconds(restore.submitToRunningMs())))
                            .row(List.of(
                                    "read from S3 (MB)", run.restoreBytesRead() > 0 ? mb(run.restoreBytesRead()) : "-"))
                            .row(List.of(
                                    "read throughput (MB/s)",
                                    run.restoreMbPerSecond() > 0 ? decimal(run.restoreMbPerSecond()) : "-"))
                            .row(List.of("keys verified", restore.verifiedKeys() + " of " + restore.expectedKeys()))
                            .row(List.of(
                                    "state digest read back / expected",
                                    restore.restoredDigest() + " / " + restore.expectedDigest()))
                            .row(List.of("verified", restore.verified() ? "yes" : "no")))
                    .append('\n');
        }
        Map<String, S3Traffic> traffic = run.result().s3Traffic();
        PluginMetrics plugin = run.result().pluginMetrics();
        if (!traffic.isEmpty() || plugin != null) {
            TreeSet<String> operations = new TreeSet<>();
            traffic.values()
                    .forEach(t -> operations.addAll(t.requestsByOperation().keySet()));
            if (plugin != null) {
                operations.addAll(plugin.requestsByOperation().keySet());
            }
            List<String> header = new ArrayList<>(List.of("phase", "requests"));
            header.addAll(operations);
            MarkdownTable requests = new MarkdownTable(header);
            traffic.forEach((phase, t) ->
                    requests.row(requestCells(phase + " (server)", t.requests(), t.requestsByOperation(), operations)));
            if (plugin != null) {
                requests.row(requestCells(
                        "whole run (plugin)", plugin.requests(), plugin.requestsByOperation(), operations));
            }
            md.append("### S3 requests\n\n").append(requests).append('\n');
        }
        if (plugin != null) {
            md.append("### Plugin metrics\n\n").append(pluginMetrics(plugin)).append('\n');
        }
        return md.toString();
    }

    /**
     * One row per run that restored: the parallelism before and after, the time from submission until the REST
     * API showed every subtask RUNNING and until the first record after the restore was processed, what the S3
     * server sent in GetObject answers and the requests it served from submission to all RUNNING, records/s in
     * the two windows after all RUNNING, and whether the state read back equals what the source's records make.
     */
    private String rescale() {
        MarkdownTable table = new MarkdownTable(List.of(
                "run",
                "parallelism",
                "submission to all RUNNING (s)",
                "to first record (s)",
                "server sent (MB)",
                "requests during the restore",
                "records/s 0-" + RestoreResult.WINDOW_SECONDS + " s",
                "records/s " + RestoreResult.WINDOW_SECONDS + "-" + 2 * RestoreResult.WINDOW_SECONDS + " s",
                "verified against the source"));
        for (RunFigures run : runs) {
            RestoreResult restore = run.restore();
            if (restore == null) {
                continue;
            }
            S3Traffic traffic = run.result().s3Traffic().get("restore");
            boolean after = restore.recordsAfterRestore() > 0;
            table.row(List.of(
                    run.label(),
                    (restore.checkpointParallelism() > 0 ? restore.checkpointParallelism() + " -> " : "")
                            + restore.parallelism(),
                    positiveSeconds(
                            restore.submitToAllRunningMs() > 0
                                    ? restore.submitToAllRunningMs()
                                    : restore.submitToRunningMs()),
                    after ? positiveSeconds(restore.submitToFirstRecordMs()) : "-",
                    traffic == null ? "-" : mb(traffic.bytesRead()),
                    traffic == null ? "-" : requestsByKind(traffic),
                    after ? String.format(Locale.ROOT, "%.0f", restore.recordsPerSecondWindow1()) : "-",
                    after ? String.format(Locale.ROOT, "%.0f", restore.recordsPerSecondWindow2()) : "-",
                    restore.sourceDigest() == null ? "-" : restore.verified() ? "yes" : "no"));
        }
        return table + "\nSubmission to all RUNNING: from the submission call until the last subtask's RUNNING"
                + " timestamp that the REST API reports. Server sent: the object bytes of every GetObject answer from submission until all subtasks"
                + " ran. Records/s: records the restored job processed after the restore (`--records-after-restore`),"
                + " in the first and second " + RestoreResult.WINDOW_SECONDS + " s after all subtasks ran.\n";
    }

    private static String requestsByKind(S3Traffic traffic) {
        StringBuilder cells = new StringBuilder(Long.toString(traffic.requests()));
        String kinds = traffic.requestsByOperation().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + " " + e.getValue())
                .collect(java.util.stream.Collectors.joining(", "));
        return kinds.isEmpty()
                ? cells.toString()
                : cells.append(": ").append(kinds).toString();
    }

    /**
     * Every checkpoint the run recorded, failed ones with why: its trigger in seconds since the job started,
     * sizes in MB, end-to-end duration (for a failed one, until it failed) and throughput.
     */
    private static MarkdownTable checkpoints(RunFigures run) {
        MarkdownTable table = new MarkdownTable(List.of(
                "id",
                "status",
                "triggered (s since start)",
                "state size (MB)",
                "checkpointed size (MB)",
                "duration (s)",
                "throughput (MB/s)",
                "failure"));
        for (CheckpointStats c : run.checkpoints()) {
            table.row(List.of(
                    Long.toString(c.id()),
                    c.completed() ? "completed" : "**" + c.status() + "**",
                    decimal(run.secondsSinceStart(c)),
                    mb(c.stateSizeBytes()),
                    mb(c.checkpointedSizeBytes()),
                    seconds(c.endToEndDurationMs()),
                    c.completed() ? decimal(c.throughputMbPerSecond()) : "-",
                    c.failureMessage().isEmpty() ? "-" : c.failureMessage()));
        }
        return table;
    }

    /** From submission until the job was stopped (a cluster run: the job's duration so far). */
    private static String checkpointingSeconds(RunFigures r) {
        var run = r.result().run();
        return run == null || run.checkpointingSeconds() <= 0 ? "-" : decimal(run.checkpointingSeconds());
    }

    /**
     * The server process's CPU time during the checkpointing phase over the phase's wall time, in percent of one
     * core: near 100 the server, not the contender, sets the pace.
     */
    private static String serverBusyWhileCheckpointing(RunFigures r) {
        var run = r.result().run();
        var traffic = r.result().s3Traffic().get("checkpointing");
        return run == null || run.checkpointingSeconds() <= 0 || traffic == null || traffic.serverCpuNanos() <= 0
                ? "-"
                : decimal(100 * traffic.serverCpuNanos() / 1e9 / run.checkpointingSeconds());
    }

    /** Completed checkpoints over the minutes of the checkpointing phase: runs compared in the same time. */
    private static String checkpointsPerMinute(RunFigures r) {
        var run = r.result().run();
        return run == null || run.checkpointingSeconds() <= 0
                ? "-"
                : decimal(r.summary().completed() / (run.checkpointingSeconds() / 60));
    }

    /** Records over the seconds from submission until the last was processed. */
    private static String recordsPerSecond(RunFigures r) {
        var run = r.result().run();
        return run == null || run.processingSeconds() <= 0
                ? "-"
                : decimal(run.recordsProcessed() / run.processingSeconds());
    }

    /**
     * Bytes GetObject requests asked for while the job processed records and checkpointed, per record: what a
     * state backend that reads state from S3 (ForSt) costs; about 0 for RocksDB, which reads local disk.
     */
    private static String bytesReadPerRecord(RunFigures r) {
        S3Traffic traffic = r.result().s3Traffic().get("checkpointing");
        var run = r.result().run();
        return traffic == null || run == null || run.recordsProcessed() == 0
                ? "-"
                : decimal((double) traffic.bytesRead() / run.recordsProcessed());
    }

    /**
     * Objects the server was asked to create while the job checkpointed (PutObject and CreateMultipartUpload),
     * per checkpoint completed or failed: the state files, the {@code _metadata} and any directory markers each
     * checkpoint wrote, counted at the server, so the same for every plugin however it splits a file into
     * requests.
     */
    private static String objectsPerCheckpoint(RunFigures r) {
        S3Traffic traffic = r.result().s3Traffic().get("checkpointing");
        int checkpoints = r.summary().completed() + r.summary().failed();
        if (traffic == null || checkpoints == 0) {
            return "-";
        }
        long objects = traffic.requestsByOperation().getOrDefault("PutObject", 0L)
                + traffic.requestsByOperation().getOrDefault("CreateMultipartUpload", 0L);
        return objects == 0 ? "-" : decimal((double) objects / checkpoints);
    }

    private static List<String> requestCells(
            String phase, long total, Map<String, Long> byOperation, TreeSet<String> operations) {
        List<String> cells = new ArrayList<>(List.of(phase, Long.toString(total)));
        operations.forEach(op -> cells.add(Long.toString(byOperation.getOrDefault(op, 0L))));
        return cells;
    }

    /** What the plugin counted itself (its MBeans), for the whole run. */
    private static MarkdownTable pluginMetrics(PluginMetrics m) {
        return new MarkdownTable(List.of("figure", "value"))
                .row(List.of("S3 requests (failed)", m.requests() + " (" + m.failedRequests() + ")"))
                .row(List.of("retries", Long.toString(m.retries())))
                .row(List.of("throttled attempts (503 SlowDown, 429)", Long.toString(m.throttledAttempts())))
                .row(List.of("timed-out attempts", Long.toString(m.timedOutAttempts())))
                .row(List.of("uploaded (MB)", mb(m.bytesUploaded())))
                .row(List.of("downloaded (MB)", mb(m.bytesDownloaded())))
                .row(List.of("peak buffered for uploads (MB)", mb(m.peakBufferedBytes())))
                .row(List.of("peak read-ahead windows (MB)", mb(m.peakReadAheadBytes())))
                .row(List.of("writers blocked by back-pressure (s)", seconds(m.backPressureBlockedMillis())));
    }

    /** A summary row of the plugin's own metrics; "-" for a run whose plugin has none. */
    private void pluginRow(MarkdownTable table, String figure, Function<PluginMetrics, String> cell) {
        row(
                table,
                figure,
                r -> r.result().pluginMetrics() == null
                        ? "-"
                        : cell.apply(r.result().pluginMetrics()));
    }

    /** The contender JVM's CPU seconds over the GB (10^9 bytes) its completed checkpoints wrote. */
    private static String cpuPerCheckpointedGb(RunFigures r) {
        double gb = r.summary().checkpointedSizeBytes().avg() * r.summary().completed() / 1e9;
        return gb > 0 && r.result().clientCpuSeconds() > 0 ? decimal(r.result().clientCpuSeconds() / gb) : "-";
    }

    /** A summary row, left out when no run measured the figure (every cell {@code -}). */
    private void row(MarkdownTable table, String figure, Function<RunFigures, String> cell) {
        List<String> cells = new ArrayList<>(List.of(figure));
        runs.forEach(r -> cells.add(cell.apply(r)));
        if (cells.stream().skip(1).anyMatch(c -> !c.equals("-"))) {
            table.row(cells);
        }
    }

    private static List<String> distribution(String name, Distribution d, Function<Double, String> format) {
        return List.of(
                name,
                format.apply(d.min()),
                format.apply(d.p50()),
                format.apply(d.p90()),
                format.apply(d.p95()),
                format.apply(d.p99()),
                format.apply(d.max()),
                format.apply(d.avg()));
    }

    /** Bytes as MB with one decimal, as {@link Units#megabytes}. */
    static String mb(long bytes) {
        return decimal(Units.megabytes(bytes));
    }

    /** Milliseconds as seconds with two decimals. */
    static String seconds(double millis) {
        return String.format(Locale.ROOT, "%.2f", millis / 1000.0);
    }

    /** Milliseconds as seconds with two decimals; {@code -} for 0, which the recorders write for "not measured". */
    static String positiveSeconds(long millis) {
        return millis > 0 ? seconds(millis) : "-";
    }

    /** One decimal. */
    static String decimal(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
