package dev.flinks3.bench.soak;

import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.S3Faults;
import dev.flinks3.bench.common.MarkdownTable;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The soak's report, {@code soak-report.md} with a PNG chart per figure over time (JFreeChart; TaskManager stops
 * as red lines): a table of each figure's first, last and highest value with its {@link Trend} (slope per hour,
 * grew or flat, samples of the warm-up left out; the open uploads judged by their {@link StopSteps} instead), the checkpoint durations' p99 in the first and last third, the
 * TaskManager stops and their restores, the failed checkpoints and what followed each, the end verification and
 * the multipart uploads left at the server. {@link #passed()} says whether every check held.
 */
public final class SoakReport {

    /** The report's file name in the output folder. */
    public static final String FILE = "soak-report.md";

    private final SoakOutcome soak;
    private final BenchmarkResults results;
    private final Bounds bounds;
    private final Map<SoakFigure, Trend> trends = new LinkedHashMap<>();
    private final Map<SoakFigure, StopSteps> stopSteps = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private Trend checkpointTrend;
    private double firstP99;
    private double lastP99;
    /** Completed checkpoints after the warm-up left out of the p99s: they waited on an answer held back on purpose. */
    private int heldBackCheckpoints;

    /**
     * The bounds the checks hold the run to.
     *
     * @param tolerance relative growth allowed between the window's first and last third, e.g. 0.10
     * @param p99Factor the last third's checkpoint duration p99 over the first third's, at most, e.g. 1.2
     * @param warmUpMillis samples this long after the first are left out of the trends, ms
     * @param uploadsPerStop the rise in open multipart uploads allowed at one TaskManager stop ({@link
     *     #uploadsOneStopCanLeave(int, int)})
     */
    public record Bounds(double tolerance, double p99Factor, long warmUpMillis, int uploadsPerStop) {}

    /**
     * The multipart uploads one TaskManager stop can leave open at most: per subtask of the job its FileSink part
     * file and one checkpoint file per RocksDB transfer thread ({@code
     * state.backend.rocksdb.checkpoint.transfer.thread.num}), and the checkpoint's {@code _metadata} that the
     * JobManager was writing when the stop failed the checkpoint.
     *
     * @param parallelism the job's parallelism
     * @param transferThreads RocksDB's transfer threads per subtask ({@code --rocksdb-transfer-threads})
     */
    public static int uploadsOneStopCanLeave(int parallelism, int transferThreads) {
        return parallelism * (transferThreads + 1) + 1;
    }

    public SoakReport(SoakOutcome soak, BenchmarkResults results, Bounds bounds) {
        this.soak = soak;
        this.results = results;
        this.bounds = bounds;
        evaluate();
    }

    /** Whether every check held. */
    public boolean passed() {
        return failures.isEmpty();
    }

    /** The checks that did not hold, one line each. */
    public List<String> failures() {
        return List.copyOf(failures);
    }

    /** The trend of each figure that was read (figures never read, -1 throughout, are left out). */
    public Map<SoakFigure, Trend> trends() {
        return Map.copyOf(trends);
    }

    private void evaluate() {
        if (!soak.error().isEmpty()) {
            failures.add("the soak failed: " + soak.error());
        }
        if (!soak.expectedDigest().equals(soak.liveDigest())) {
            failures.add(
                    "the job's state digest " + soak.liveDigest() + " is not the expected " + soak.expectedDigest());
        }
        ContenderResult contender = results == null || results.contenders().isEmpty()
                ? null
                : results.contenders().get(0);
        if (contender == null
                || contender.run() == null
                || contender.run().restore() == null
                || !contender.run().restore().verified()) {
            failures.add("the final restore from the last checkpoint did not verify");
        }
        if (soak.sink() == null || !soak.sink().exactlyOnce()) {
            failures.add("the FileSink does not hold every record exactly once: " + soak.sink());
        }
        for (SoakOutcome.Kill kill : soak.kills()) {
            if (!kill.verified()) {
                failures.add("the stop at " + Instant.ofEpochMilli(kill.epochMillis())
                        + " was not followed by a verified restore");
            }
        }
        List<SoakOutcome.Checkpoint> checkpoints = soak.checkpoints();
        for (int i = 0; i + 1 < checkpoints.size(); i++) {
            SoakOutcome.Checkpoint failed = checkpoints.get(i);
            SoakOutcome.Checkpoint next = checkpoints.get(i + 1);
            if (!failed.completed() && !next.completed() && !stopBetween(failed, next)) {
                // Two failures in a row are allowed only across a TaskManager stop (the job restarts in between).
                failures.add("checkpoint " + failed.id() + " failed and so did the next one, " + next.id());
            }
        }
        List<SoakSample> window = window();
        if (window.size() < 6) {
            failures.add("only " + window.size() + " samples after the warm-up: too few to judge a trend");
            return;
        }
        long[] times = window.stream().mapToLong(SoakSample::epochMillis).toArray();
        long[] stops =
                soak.kills().stream().mapToLong(SoakOutcome.Kill::epochMillis).toArray();
        for (SoakFigure figure : SoakFigure.values()) {
            double[] values = window.stream()
                    .mapToDouble(s -> figure.reading.applyAsLong(s) / figure.scale)
                    .toArray();
            if (Arrays.stream(values).allMatch(v -> v < 0)) {
                continue;
            }
            Trend trend = Trend.of(times, values, bounds.tolerance(), figure.floor);
            trends.put(figure, trend);
            if (figure.stepsAtStops) {
                StopSteps steps =
                        StopSteps.of(times, values, stops, bounds.tolerance(), figure.floor, bounds.uploadsPerStop());
                stopSteps.put(figure, steps);
                if (steps.grewBetweenStops()) {
                    failures.add(figure.title + " grew between TaskManager stops");
                }
                for (int i = 0; i < steps.steps().size(); i++) {
                    if (steps.steps().get(i) > steps.perStopBound()) {
                        failures.add(String.format(
                                Locale.ROOT,
                                "%s rose by %.1f %s at TaskManager stop %d of the window, more than %.0f",
                                figure.title,
                                steps.steps().get(i),
                                figure.unit,
                                i + 1,
                                steps.perStopBound()));
                    }
                }
            } else if (trend.grew()) {
                failures.add(String.format(
                        Locale.ROOT,
                        "%s grew: %.1f -> %.1f %s (first and last third), %+.1f %s per hour",
                        figure.title,
                        trend.firstThirdMean(),
                        trend.lastThirdMean(),
                        figure.unit,
                        trend.slopePerHour(),
                        figure.unit));
            }
        }
        List<SoakOutcome.Checkpoint> completed = completedAfterWarmUp();
        if (completed.size() >= 6) {
            int third = completed.size() / 3;
            // A third holds a few dozen checkpoints in a short soak: its p99 is its slowest, and one checkpoint that
            // waited out an attempt timeout on an injected slow answer would decide the verdict alone.
            List<SoakOutcome.Checkpoint> first = withoutHeldBackAnswers(completed.subList(0, third));
            List<SoakOutcome.Checkpoint> last =
                    withoutHeldBackAnswers(completed.subList(completed.size() - third, completed.size()));
            heldBackCheckpoints = 2 * third - first.size() - last.size();
            firstP99 = p99(first.isEmpty() ? completed.subList(0, third) : first);
            lastP99 = p99(last.isEmpty() ? completed.subList(completed.size() - third, completed.size()) : last);
            checkpointTrend = Trend.of(
                    completed.stream()
                            .mapToLong(SoakOutcome.Checkpoint::triggerEpochMillis)
                            .toArray(),
                    completed.stream().mapToDouble(c -> c.durationMs()).toArray(),
                    bounds.tolerance(),
                    1000);
            if (lastP99 > bounds.p99Factor() * firstP99) {
                failures.add(String.format(
                        Locale.ROOT,
                        "checkpoint duration p99 rose from %.0f ms (first third) to %.0f ms (last third), more than %.1fx",
                        firstP99,
                        lastP99,
                        bounds.p99Factor()));
            }
        } else {
            failures.add("only " + completed.size() + " completed checkpoints after the warm-up");
        }
    }

    /** Whether a TaskManager was stopped from a minute before {@code first} was triggered until {@code second} was. */
    private boolean stopBetween(SoakOutcome.Checkpoint first, SoakOutcome.Checkpoint second) {
        return soak.kills().stream()
                .anyMatch(k -> k.epochMillis() >= first.triggerEpochMillis() - 60_000
                        && k.epochMillis() <= second.triggerEpochMillis());
    }

    /**
     * Where the trends start: after the warm-up and after the first TaskManager stop's restore, since the first
     * restore sets up what restores use from then on (a step in heap and connections, not a growth).
     */
    private long windowStart() {
        if (soak.samples().isEmpty()) {
            return 0;
        }
        long start = soak.samples().get(0).epochMillis() + bounds.warmUpMillis();
        if (!soak.kills().isEmpty()) {
            SoakOutcome.Kill first = soak.kills().get(0);
            start = Math.max(start, first.epochMillis() + Math.max(0, first.recoveryMs()) + 5000);
        }
        return start;
    }

    private List<SoakSample> window() {
        if (soak.samples().isEmpty()) {
            return List.of();
        }
        long from = windowStart();
        long to = soak.soakEndEpochMillis() > 0 ? soak.soakEndEpochMillis() : Long.MAX_VALUE;
        return soak.samples().stream()
                .filter(s -> s.epochMillis() >= from && s.epochMillis() <= to)
                .toList();
    }

    private List<SoakOutcome.Checkpoint> completedAfterWarmUp() {
        long from = windowStart();
        return soak.checkpoints().stream()
                .filter(SoakOutcome.Checkpoint::completed)
                .filter(c -> c.triggerEpochMillis() >= from)
                .toList();
    }

    /**
     * The checkpoints that were not in progress while the embedded server held an answer back on purpose (a slow
     * answer of its fault profile, from when it began to wait until it was served; the client waits it out until
     * its attempt timeout, and a task blocked on it holds the next barrier back); all of them when the server
     * injected none or the results do not say when.
     */
    private List<SoakOutcome.Checkpoint> withoutHeldBackAnswers(List<SoakOutcome.Checkpoint> checkpoints) {
        S3Faults faults = results == null ? null : results.s3Faults();
        if (faults == null
                || faults.slowAnswerEpochMillis() == null
                || faults.slowAnswerEpochMillis().isEmpty()) {
            return checkpoints;
        }
        long[] held = faults.slowAnswerEpochMillis().stream()
                .mapToLong(Long::longValue)
                .sorted()
                .toArray();
        long hold = faults.slowAnswerMillis();
        return checkpoints.stream()
                .filter(c -> {
                    // The first answer held back that was still waiting when the checkpoint was triggered or later.
                    int at = Arrays.binarySearch(held, c.triggerEpochMillis() - hold);
                    int next = at >= 0 ? at : -at - 1;
                    return next >= held.length || held[next] > c.triggerEpochMillis() + c.durationMs();
                })
                .toList();
    }

    private static double p99(List<SoakOutcome.Checkpoint> checkpoints) {
        long[] durations = checkpoints.stream()
                .mapToLong(SoakOutcome.Checkpoint::durationMs)
                .sorted()
                .toArray();
        int index = (int) Math.ceil(0.99 * durations.length) - 1;
        return durations[Math.max(0, index)];
    }

    /**
     * Writes the report and its charts into {@code directory}.
     *
     * @param command the command line that ran the soak
     * @return the report's path
     * @throws IOException if a file cannot be written
     */
    public Path write(Path directory, String command) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(directory);
        long t0 = soak.samples().isEmpty() ? 0 : soak.samples().get(0).epochMillis();
        long t1 = soak.samples().isEmpty()
                ? 0
                : soak.samples().get(soak.samples().size() - 1).epochMillis();
        StringBuilder md = new StringBuilder();
        md.append("# Soak: ").append(passed() ? "passed" : "FAILED").append("\n\n");
        md.append("Command: `").append(command).append("`\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Sampled for %.1f minutes (%s to %s), %d samples. The trends start %d s after the first sample:"
                        + " after a warm-up of %d s and after the first TaskManager stop's restore (the first restore"
                        + " sets up what later ones reuse); samples after the soak's job was cancelled (the final"
                        + " restore and checks) are left out too."
                        + " Bounds: a figure grew if its last third's mean exceeds its first third's by more than"
                        + " %.0f%% plus its noise floor and so does the fitted line over the window; the open"
                        + " multipart uploads may rise by up to %d at each TaskManager stop (the stopped tasks'"
                        + " streams, which Flink neither closes nor hands back) and must be flat between stops;"
                        + " checkpoint duration p99 of the last third within %.1fx of the first third's%s.\n\n",
                (t1 - t0) / 60_000.0,
                Instant.ofEpochMilli(t0),
                Instant.ofEpochMilli(t1),
                soak.samples().size(),
                (windowStart() - t0) / 1000,
                bounds.warmUpMillis() / 1000,
                bounds.tolerance() * 100,
                bounds.uploadsPerStop(),
                bounds.p99Factor(),
                heldBackCheckpoints == 0
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                " (%d checkpoints in progress while the server held an answer back on purpose are left"
                                        + " out of the p99s: they show the attempt timeout, not a growth)",
                                heldBackCheckpoints)));
        if (results != null) {
            md.append("Machine: ")
                    .append(results.machine())
                    .append("; S3: ")
                    .append(results.configuration().s3Profile())
                    .append(" ")
                    .append(results.configuration().endpoint())
                    .append("; job: ")
                    .append(results.configuration().jobParameters())
                    .append("\n\n");
            S3Faults faults = results.s3Faults();
            if (faults != null) {
                md.append(String.format(
                        Locale.ROOT,
                        "Faults injected by the embedded server: %,d in all: %,d 500 InternalError, %,d 503 SlowDown,"
                                + " %,d connections closed before the answer, %,d closed mid-body, %,d answers held back"
                                + " past the attempt timeout (rates asked: errors %.2f%%, resets %.2f%%, seed %d).\n\n",
                        faults.injected(),
                        faults.internalErrors(),
                        faults.slowDowns(),
                        faults.resets(),
                        faults.midBodyResets(),
                        faults.slowAnswers(),
                        faults.errorRate() * 100,
                        faults.resetRate() * 100,
                        faults.seed()));
            } else {
                md.append("No faults injected by a server (an external endpoint, or no fault rates given).\n\n");
            }
        }
        md.append("## Checks\n\n");
        if (passed()) {
            md.append("Every check held.\n\n");
        } else {
            for (String failure : failures) {
                md.append("- ").append(failure).append('\n');
            }
            md.append('\n');
        }
        md.append("## Figures over time\n\n");
        MarkdownTable table = new MarkdownTable(List.of(
                "figure",
                "unit",
                "first",
                "last",
                "highest",
                "first third",
                "last third",
                "slope per hour",
                "verdict"));
        for (Map.Entry<SoakFigure, Trend> entry : trends.entrySet()) {
            SoakFigure figure = entry.getKey();
            Trend trend = entry.getValue();
            table.row(List.of(
                    figure.title,
                    figure.unit,
                    number(trend.first()),
                    number(trend.last()),
                    number(trend.highest()),
                    number(trend.firstThirdMean()),
                    number(trend.lastThirdMean()),
                    String.format(Locale.ROOT, "%+.2f", trend.slopePerHour()),
                    verdict(figure, trend)));
        }
        if (checkpointTrend != null) {
            table.row(List.of(
                    "checkpoint duration (completed)",
                    "ms",
                    number(checkpointTrend.first()),
                    number(checkpointTrend.last()),
                    number(checkpointTrend.highest()),
                    number(checkpointTrend.firstThirdMean()) + " (p99 " + number(firstP99) + ")",
                    number(checkpointTrend.lastThirdMean()) + " (p99 " + number(lastP99) + ")",
                    String.format(Locale.ROOT, "%+.2f", checkpointTrend.slopePerHour()),
                    lastP99 > bounds.p99Factor() * firstP99 ? "**p99 rose**" : "p99 within bound"));
        }
        md.append(table).append('\n');
        md.append("Connections leased from the pool are not sampled: the plugin publishes no gauge of its HTTP"
                + " client's pool; UploadParts in flight is the nearest figure (each holds a leased connection).\n\n");
        for (SoakFigure figure : trends.keySet()) {
            writeChart(directory, figure.chartFile(), figure.title, figure.unit, series(figure, t0), t0);
            md.append("![")
                    .append(figure.title)
                    .append("](")
                    .append(figure.chartFile())
                    .append(")\n\n");
        }
        writeChart(directory, "soak-checkpoint-duration.png", "checkpoint duration", "ms", checkpointSeries(t0), t0);
        md.append("![checkpoint duration](soak-checkpoint-duration.png)\n\n");
        appendKills(md);
        appendCheckpoints(md);
        appendVerification(md);
        Path report = directory.resolve(FILE);
        Files.writeString(report, md.toString());
        return report;
    }

    private void appendKills(StringBuilder md) {
        md.append("## TaskManagers stopped\n\n");
        md.append("How: ").append(soak.taskManagerKill()).append("\n\n");
        if (soak.kills().isEmpty()) {
            md.append("None.\n\n");
            return;
        }
        MarkdownTable table = new MarkdownTable(List.of(
                "stopped at", "checkpoint in progress", "restored from", "recovered and verified after", "verified"));
        for (SoakOutcome.Kill kill : soak.kills()) {
            table.row(List.of(
                    Instant.ofEpochMilli(kill.epochMillis()).toString(),
                    kill.checkpointInProgress() > 0 ? Long.toString(kill.checkpointInProgress()) : "none seen",
                    Long.toString(kill.restoredCheckpoint()),
                    kill.recoveryMs() < 0 ? "-" : String.format(Locale.ROOT, "%.1f s", kill.recoveryMs() / 1000.0),
                    kill.verified() ? "yes" : "**no**"));
        }
        md.append(table).append('\n');
    }

    private void appendCheckpoints(StringBuilder md) {
        List<SoakOutcome.Checkpoint> all = soak.checkpoints();
        long failed = all.stream().filter(c -> !c.completed()).count();
        md.append(String.format(
                Locale.ROOT, "## Checkpoints\n\n%d completed, %d failed.\n\n", all.size() - failed, failed));
        if (failed == 0) {
            return;
        }
        Map<String, Integer> reasons = new TreeMap<>();
        for (int i = 0; i < all.size(); i++) {
            SoakOutcome.Checkpoint c = all.get(i);
            if (!c.completed()) {
                String next = i + 1 < all.size()
                        ? (all.get(i + 1).completed() ? "next completed" : "next failed too")
                        : "last";
                String reason = c.failure().length() > 160 ? c.failure().substring(0, 160) + "..." : c.failure();
                reasons.merge(reason + " (" + next + ")", 1, Integer::sum);
            }
        }
        MarkdownTable table = new MarkdownTable(List.of("failure (and the checkpoint after it)", "checkpoints"));
        reasons.forEach(
                (reason, count) -> table.row(List.of(reason.replace('|', '/').replace('\n', ' '), count.toString())));
        md.append(table).append('\n');
    }

    private void appendVerification(StringBuilder md) {
        md.append("## End verification\n\n");
        md.append("- State: digest ")
                .append(soak.liveDigest())
                .append(" when cancelled, expected ")
                .append(soak.expectedDigest())
                .append(" (")
                .append(soak.expectedKeys())
                .append(" keys, computed from the record generator without Flink)");
        ContenderResult contender = results == null || results.contenders().isEmpty()
                ? null
                : results.contenders().get(0);
        if (contender != null && contender.run() != null && contender.run().restore() != null) {
            var restore = contender.run().restore();
            md.append("; restored from checkpoint ")
                    .append(restore.checkpointId())
                    .append(": ")
                    .append(restore.verified() ? "verified" : "NOT verified");
        }
        md.append(".\n");
        SinkVerification sink = soak.sink();
        if (sink != null) {
            md.append(String.format(
                    Locale.ROOT,
                    "- FileSink: %,d of %,d records in %d committed part files, %d duplicates, %d missing, %d"
                            + " uncommitted files left: %s.\n",
                    sink.distinct(),
                    sink.expected(),
                    sink.partFiles(),
                    sink.duplicates(),
                    sink.missing(),
                    sink.uncommittedFiles(),
                    sink.exactlyOnce() ? "exactly once" : "NOT exactly once"));
        }
        SoakOutcome.UploadsAtEnd uploads = soak.uploadsAtEnd();
        if (uploads != null) {
            md.append(String.format(
                    Locale.ROOT,
                    "- Multipart uploads open at the server after the job ended: %d of checkpoint files, %d of sink"
                            + " part files, with %d TaskManagers stopped during the run.%s\n",
                    uploads.checkpointStreams(),
                    uploads.sinkFiles(),
                    soak.kills().size(),
                    uploads.keys().isEmpty() ? "" : " Keys: " + String.join(", ", uploads.keys())));
        }
        md.append('\n');
    }

    private XYSeries series(SoakFigure figure, long t0) {
        XYSeries series = new XYSeries(figure.title);
        for (SoakSample sample : soak.samples()) {
            long value = figure.reading.applyAsLong(sample);
            if (value >= 0) {
                series.add((sample.epochMillis() - t0) / 60_000.0, value / figure.scale);
            }
        }
        return series;
    }

    private XYSeries checkpointSeries(long t0) {
        XYSeries series = new XYSeries("completed checkpoints");
        for (SoakOutcome.Checkpoint c : soak.checkpoints()) {
            if (c.completed()) {
                series.add((c.triggerEpochMillis() - t0) / 60_000.0, c.durationMs());
            }
        }
        return series;
    }

    private void writeChart(Path directory, String file, String title, String unit, XYSeries series, long t0)
            throws IOException {
        JFreeChart chart = ChartFactory.createXYLineChart(
                title,
                "minutes since the first sample (red: TaskManager stopped)",
                unit,
                new XYSeriesCollection(series),
                PlotOrientation.VERTICAL,
                false,
                false,
                false);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.getRenderer().setSeriesPaint(0, new Color(0x1f77b4));
        for (SoakOutcome.Kill kill : soak.kills()) {
            ValueMarker marker = new ValueMarker((kill.epochMillis() - t0) / 60_000.0);
            marker.setPaint(new Color(0xd62728));
            marker.setStroke(new BasicStroke(1f));
            plot.addDomainMarker(marker);
        }
        ChartUtils.saveChartAsPNG(directory.resolve(file).toFile(), chart, 900, 400);
    }

    /** The table's verdict: the trend's, or for a figure that may step at stops, its steps and stretches. */
    private String verdict(SoakFigure figure, Trend trend) {
        StopSteps steps = stopSteps.get(figure);
        if (steps == null) {
            return trend.grew() ? "**grew**" : "flat";
        }
        String atStops = steps.steps().isEmpty()
                ? "no stop in the window"
                : steps.steps().stream().map(SoakReport::signed).collect(Collectors.joining(", "))
                        + " at the stops (at most " + number(steps.perStopBound()) + " each)";
        String between = steps.grewBetweenStops() ? "**grew between stops**" : "flat between stops";
        return (steps.grew() ? "**" + atStops + "**" : atStops) + "; " + between;
    }

    private static String signed(double value) {
        return (value > 0 ? "+" : "") + number(value);
    }

    private static String number(double value) {
        return Math.abs(value) >= 100 || value == Math.rint(value)
                ? String.format(Locale.ROOT, "%,.0f", value)
                : String.format(Locale.ROOT, "%.2f", value);
    }
}
