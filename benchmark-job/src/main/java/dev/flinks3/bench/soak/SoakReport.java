package dev.flinks3.bench.soak;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.StateBackendKind;
import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The soak's verdict and report, {@code soak-report.md} with a PNG chart per figure over time (JFreeChart; TaskManager
 * stops as red lines). The checks, fixed before a run (docs/soak.md):
 *
 * <ul>
 *   <li>nothing lost: every job's state digest equals the one computed from the record generator without Flink, the
 *       restore of its last checkpoint verifies, the FileSink's committed files hold every record exactly once, and
 *       every TaskManager stop is followed by a restore that every subtask verified;
 *   <li>nothing grows: each figure of each process ({@link SoakFigure}), and the uploads open at the server, within
 *       its limits of {@link SoakRules}: its {@link Growth} per hour, and per TaskManager stop for the processes that
 *       live through the stops; the uploads a stop abandons at the server at most {@link
 *       #uploadsOneStopCanLeave(List)} per stop;
 *   <li>no job fails two checkpoints in a row except across a stop, and its checkpoint duration p99 of the last third
 *       is within {@code --p99-factor} of the first third's.
 * </ul>
 *
 * Samples before the warm-up's end, during each stop's recovery and the settle time after it, and after the jobs
 * were cancelled are left out. {@link #passed()} says whether every check held.
 */
public final class SoakReport {

    /** The report's file name in the output folder. */
    public static final String FILE = "soak-report.md";

    /** The name of the S3 server in the table of figures. */
    static final String SERVER = "S3 server";

    private final SoakOutcome soak;
    private final BenchmarkResults results;
    private final Bounds bounds;
    /** Each figure's growth by process (processes that never read it left out). */
    private final Map<SoakFigure, Map<String, Growth>> growth = new LinkedHashMap<>();

    private final List<String> failures = new ArrayList<>();
    private final List<String> notSampled = new ArrayList<>();
    private final Map<String, double[]> p99s = new LinkedHashMap<>();
    /** Completed checkpoints after the warm-up left out of the p99s: they waited on an answer held back on purpose. */
    private int heldBackCheckpoints;

    /**
     * What the checks hold the run to.
     *
     * @param rules the figures' limits
     * @param p99Factor the last third's checkpoint duration p99 over the first third's, at most, e.g. 1.2
     * @param warmUpMillis samples this long after the first are left out of the slopes, ms
     * @param uploadsPerStop the uploads at the server one TaskManager stop may abandon ({@link
     *     #uploadsOneStopCanLeave(List)})
     */
    public record Bounds(SoakRules rules, double p99Factor, long warmUpMillis, int uploadsPerStop) {}

    /**
     * The multipart uploads one TaskManager stop can abandon at most, if it took every subtask of every job: per
     * subtask of a RocksDB job its FileSink part file and one checkpoint file per RocksDB transfer thread ({@code
     * state.backend.rocksdb.checkpoint.transfer.thread.num}); per subtask of a ForSt job four files (a flush, a
     * compaction and two files a checkpoint copies); and each job's checkpoint {@code _metadata} that the JobManager was
     * writing when the stop failed the checkpoint.
     *
     * @param jobs the soak's jobs
     */
    public static int uploadsOneStopCanLeave(List<JobParameters> jobs) {
        int uploads = 0;
        for (JobParameters job : jobs) {
            int perSubtask = job.stateBackend() == StateBackendKind.FORST ? 4 : job.rocksDbTransferThreads() + 1;
            uploads += job.parallelism() * perSubtask + 1;
        }
        return uploads;
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

    /** Each figure's growth by process name ({@value #SERVER} for the server's figures). */
    public Map<SoakFigure, Map<String, Growth>> growth() {
        return Map.copyOf(growth);
    }

    private void evaluate() {
        if (!soak.error().isEmpty()) {
            failures.add("the soak failed: " + soak.error());
        }
        if (soak.jobs().isEmpty()) {
            failures.add("no job ran");
        }
        for (SoakOutcome.JobOutcome job : soak.jobs()) {
            checkNothingLost(job);
            checkCheckpoints(job);
        }
        for (SoakOutcome.Kill kill : soak.kills()) {
            if (!kill.verified()) {
                failures.add("the stop of " + stopped(kill) + " at " + Instant.ofEpochMilli(kill.epochMillis())
                        + " was not followed by a verified restore of every job");
            }
        }
        judgeGrowth();
    }

    private void checkNothingLost(SoakOutcome.JobOutcome job) {
        if (!job.expectedDigest().equals(job.liveDigest())) {
            failures.add(job.name() + " job: the state digest " + job.liveDigest() + " is not the expected "
                    + job.expectedDigest());
        }
        if (job.finalRestore() == null || !job.finalRestore().verified()) {
            failures.add(job.name() + " job: the final restore from the last checkpoint did not verify");
        }
        if (job.hasSink() && (job.sink() == null || !job.sink().exactlyOnce())) {
            failures.add(job.name() + " job: the FileSink does not hold every record exactly once: " + job.sink());
        }
    }

    private void checkCheckpoints(SoakOutcome.JobOutcome job) {
        List<SoakOutcome.Checkpoint> checkpoints = job.checkpoints();
        for (int i = 0; i + 1 < checkpoints.size(); i++) {
            SoakOutcome.Checkpoint failed = checkpoints.get(i);
            SoakOutcome.Checkpoint next = checkpoints.get(i + 1);
            if (!failed.completed() && !next.completed() && !stopBetween(failed, next)) {
                // Two failures in a row are allowed only across a TaskManager stop (the job restarts in between).
                failures.add(job.name() + " job: checkpoint " + failed.id() + " failed and so did the next one, "
                        + next.id());
            }
        }
        List<SoakOutcome.Checkpoint> completed = checkpoints.stream()
                .filter(SoakOutcome.Checkpoint::completed)
                .filter(c -> c.triggerEpochMillis() >= windowStart())
                .toList();
        if (completed.size() < 6) {
            failures.add(job.name() + " job: only " + completed.size() + " completed checkpoints after the warm-up");
            return;
        }
        int third = completed.size() / 3;
        // A third holds a few dozen checkpoints in a short soak: its p99 is its slowest, and one checkpoint that
        // waited out an attempt timeout on an injected slow answer would decide the verdict alone.
        List<SoakOutcome.Checkpoint> first = withoutHeldBackAnswers(completed.subList(0, third));
        List<SoakOutcome.Checkpoint> last =
                withoutHeldBackAnswers(completed.subList(completed.size() - third, completed.size()));
        heldBackCheckpoints += 2 * third - first.size() - last.size();
        double firstP99 = p99(first.isEmpty() ? completed.subList(0, third) : first);
        double lastP99 = p99(last.isEmpty() ? completed.subList(completed.size() - third, completed.size()) : last);
        p99s.put(job.name(), new double[] {firstP99, lastP99});
        if (lastP99 > bounds.p99Factor() * firstP99) {
            failures.add(String.format(
                    Locale.ROOT,
                    "%s job: checkpoint duration p99 rose from %.0f ms (first third) to %.0f ms (last third), more"
                            + " than %.1fx",
                    job.name(),
                    firstP99,
                    lastP99,
                    bounds.p99Factor()));
        }
    }

    private void judgeGrowth() {
        Set<String> killed = new LinkedHashSet<>();
        soak.kills().forEach(k -> killed.add(k.killedProcess()));
        Set<String> processes = new LinkedHashSet<>();
        soak.samples().forEach(s -> processes.add(s.process()));
        int stopsInWindow = (int) soak.kills().stream()
                .filter(k -> k.epochMillis() >= windowStart() && k.epochMillis() <= windowEnd())
                .count();
        boolean stopsExpected = !soak.kills().isEmpty();
        for (SoakFigure figure : SoakFigure.values()) {
            SoakRules.Limit limit = bounds.rules().limit(figure);
            Map<String, Growth> byProcess = new LinkedHashMap<>();
            if (figure.atServer()) {
                List<Growth.Stretch> stretches =
                        stretches(soak.server(), ServerSample::epochMillis, s -> 0, figure.server, figure.scale);
                if (!stretches.isEmpty()) {
                    byProcess.put(SERVER, Growth.of(stretches, true));
                }
            } else {
                for (String process : processes) {
                    List<SoakSample> own = soak.samples().stream()
                            .filter(s -> s.process().equals(process))
                            .toList();
                    List<Growth.Stretch> stretches = stretches(
                            own, SoakSample::epochMillis, SoakSample::generation, figure.process, figure.scale);
                    if (stretches.isEmpty()) {
                        if (own.stream().allMatch(s -> figure.process.applyAsLong(s) < 0)) {
                            notSampled.add(figure.title + " of " + process);
                        }
                        continue;
                    }
                    byProcess.put(process, Growth.of(stretches, !killed.contains(process)));
                }
            }
            growth.put(figure, byProcess);
            for (Map.Entry<String, Growth> entry : byProcess.entrySet()) {
                Growth g = entry.getValue();
                double perStopLimit = perStopLimit(figure, entry.getKey());
                String what = figure.title + " of " + entry.getKey();
                if (Double.isNaN(g.perHour())) {
                    failures.add(what + ": no stretch with " + Growth.MIN_SAMPLES + " samples after the warm-up");
                } else if (g.perHour() > limit.perHour()) {
                    failures.add(String.format(
                            Locale.ROOT,
                            "%s grew %+.2f %s per hour inside stretches, more than %s",
                            what,
                            g.perHour(),
                            figure.unit,
                            number(limit.perHour())));
                }
                if (g.stopsJudged() && g.perStop() > perStopLimit) {
                    failures.add(String.format(
                            Locale.ROOT,
                            "%s rose %+.2f %s per TaskManager stop (levels %s after stops %s), more than %s",
                            what,
                            g.perStop(),
                            figure.unit,
                            levels(g),
                            g.stopsOfLevels(),
                            number(perStopLimit)));
                }
                boolean steady = !killed.contains(entry.getKey());
                if (stopsExpected && steady && !g.stopsJudged() && !failures.contains(tooFewStops(stopsInWindow))) {
                    failures.add(tooFewStops(stopsInWindow));
                }
            }
        }
    }

    /**
     * A figure's limit per stop in one process: the rules', or for the uploads abandoned at the server what one stop
     * can abandon. The plugin's count of open uploads in the MiniCluster's JVM may also step by what a stop can
     * abandon: the stopped TaskManager lived in that JVM, and the streams of the tasks stopped with it stay open
     * there as a killed process's stay open at the server (CI's short soak read +1.2 per stop after the aborts of
     * closed streams were fixed). A TaskManager process that lives through a stop has its tasks cancelled, their
     * streams closed and their uploads aborted: the rules' 0.5 there.
     */
    private double perStopLimit(SoakFigure figure, String process) {
        double limit = bounds.rules().limit(figure).perStop();
        boolean hostsTheStoppedTaskManager =
                figure == SoakFigure.UPLOADS_BY_PLUGIN && process.equals(MiniSoakCluster.PROCESS);
        return Double.isNaN(limit) || hostsTheStoppedTaskManager ? bounds.uploadsPerStop() : limit;
    }

    private static String tooFewStops(int stopsInWindow) {
        return "only " + stopsInWindow + " TaskManager stops after the warm-up with settled samples after them:"
                + " the slope per stop needs " + Growth.MIN_LEVELS + " stretches after a stop";
    }

    /**
     * The settled stretches of one process's (or the server's) samples in the window: cut at each stop, from the
     * stop's recovery plus the settle time until the next stop, and by generation.
     */
    private <T> List<Growth.Stretch> stretches(
            List<T> samples,
            ToLongFunction<T> time,
            ToLongFunction<T> generation,
            ToLongFunction<T> reading,
            double scale) {
        long[] stops =
                soak.kills().stream().mapToLong(SoakOutcome.Kill::epochMillis).toArray();
        long[] settled = soak.kills().stream()
                .mapToLong(k -> k.epochMillis()
                        + Math.max(0, k.recoveryMs())
                        + bounds.rules().settleMillis())
                .toArray();
        Map<String, List<T>> groups = new TreeMap<>();
        Map<String, Integer> stopOf = new LinkedHashMap<>();
        long from = windowStart();
        long to = windowEnd();
        for (T sample : samples) {
            long t = time.applyAsLong(sample);
            if (t < from || t > to || reading.applyAsLong(sample) < 0) {
                continue;
            }
            int stop = 0;
            while (stop < stops.length && stops[stop] <= t) {
                stop++;
            }
            if (stop > 0 && t < settled[stop - 1]) {
                continue;
            }
            String key = String.format(Locale.ROOT, "%06d-%06d", stop, generation.applyAsLong(sample));
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(sample);
            stopOf.put(key, stop);
        }
        List<Growth.Stretch> stretches = new ArrayList<>();
        for (Map.Entry<String, List<T>> group : groups.entrySet()) {
            List<T> members = group.getValue();
            stretches.add(new Growth.Stretch(
                    stopOf.get(group.getKey()),
                    members.stream().mapToLong(time).toArray(),
                    members.stream()
                            .mapToDouble(s -> reading.applyAsLong(s) / scale)
                            .toArray()));
        }
        return stretches;
    }

    /** Whether a TaskManager was stopped from a minute before {@code first} was triggered until {@code second} was. */
    private boolean stopBetween(SoakOutcome.Checkpoint first, SoakOutcome.Checkpoint second) {
        return soak.kills().stream()
                .anyMatch(k -> k.epochMillis() >= first.triggerEpochMillis() - 60_000
                        && k.epochMillis() <= second.triggerEpochMillis());
    }

    /** Where the judged samples start: the first sample plus the warm-up. */
    private long windowStart() {
        long first = soak.samples().isEmpty()
                ? 0
                : soak.samples().stream()
                        .mapToLong(SoakSample::epochMillis)
                        .min()
                        .orElse(0);
        return first + bounds.warmUpMillis();
    }

    /** Where they end: when the jobs were cancelled for the final checks. */
    private long windowEnd() {
        return soak.soakEndEpochMillis() > 0 ? soak.soakEndEpochMillis() : Long.MAX_VALUE;
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
        long t0 =
                soak.samples().stream().mapToLong(SoakSample::epochMillis).min().orElse(0);
        long t1 =
                soak.samples().stream().mapToLong(SoakSample::epochMillis).max().orElse(0);
        StringBuilder md = new StringBuilder();
        md.append("# Soak: ").append(passed() ? "passed" : "FAILED").append("\n\n");
        md.append("Command: `").append(command).append("`\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Sampled for %.1f minutes (%s to %s), %d process samples and %d listings of the server's uploads. The"
                        + " rules are the '%s' set of docs/soak.md, fixed before the run: samples of the first %d s"
                        + " (warm-up), of each stop's recovery and the %d s after it, and after the jobs were cancelled"
                        + " for the final checks are left out; each figure's slope per hour inside the stretches"
                        + " between stops, and its slope per TaskManager stop in the processes that live through the"
                        + " stops, must be within the limits in the table; a stop may abandon at most %d uploads at the"
                        + " server; each job's checkpoint duration p99 of the last third within %.1fx of the first"
                        + " third's%s.\n\n",
                (t1 - t0) / 60_000.0,
                Instant.ofEpochMilli(t0),
                Instant.ofEpochMilli(t1),
                soak.samples().size(),
                soak.server().size(),
                bounds.rules().name(),
                bounds.warmUpMillis() / 1000,
                bounds.rules().settleMillis() / 1000,
                bounds.uploadsPerStop(),
                bounds.p99Factor(),
                heldBackCheckpoints == 0
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                " (%d checkpoints in progress while the server held an answer back on purpose are left"
                                        + " out of the p99s: they show the attempt timeout, not a growth)",
                                heldBackCheckpoints)));
        appendSetup(md);
        md.append("## Checks\n\n");
        if (passed()) {
            md.append("Every check held.\n\n");
        } else {
            for (String failure : failures) {
                md.append("- ").append(failure).append('\n');
            }
            md.append('\n');
        }
        appendFigures(md);
        for (SoakFigure figure : growth.keySet()) {
            if (growth.get(figure).isEmpty()) {
                continue;
            }
            writeChart(directory, figure, t0);
            md.append("![")
                    .append(figure.title)
                    .append("](")
                    .append(figure.chartFile())
                    .append(")\n\n");
        }
        writeCheckpointChart(directory, t0);
        md.append("![checkpoint duration](soak-checkpoint-duration.png)\n\n");
        appendKills(md);
        appendCheckpoints(md);
        appendVerification(md);
        Path report = directory.resolve(FILE);
        Files.writeString(report, md.toString());
        return report;
    }

    private void appendSetup(StringBuilder md) {
        if (results == null || results.configuration() == null) {
            return;
        }
        md.append("Machine: ")
                .append(results.machine())
                .append("; S3: ")
                .append(results.configuration().s3Profile())
                .append(" ")
                .append(results.configuration().endpoint())
                .append(".\n\n");
        for (SoakOutcome.JobOutcome job : soak.jobs()) {
            md.append("- ")
                    .append(job.name())
                    .append(" job: ")
                    .append(job.shape())
                    .append(job.hasSink() ? "; FileSink of every record" : "")
                    .append('\n');
        }
        md.append('\n');
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

    private void appendFigures(StringBuilder md) {
        md.append("## Figures\n\n");
        md.append(
                "Level: the lower quartile of a stretch's settled samples (the first and last stretch after a stop). Per stop: only for"
                        + " processes that live through the stops; a TaskManager killed and started again is judged per hour"
                        + " within each of its processes.\n\n");
        MarkdownTable table = new MarkdownTable(List.of(
                "figure",
                "process",
                "unit",
                "first level",
                "last level",
                "per hour (limit)",
                "per stop (limit)",
                "verdict"));
        for (Map.Entry<SoakFigure, Map<String, Growth>> entry : growth.entrySet()) {
            SoakFigure figure = entry.getKey();
            SoakRules.Limit limit = bounds.rules().limit(figure);
            for (Map.Entry<String, Growth> byProcess : entry.getValue().entrySet()) {
                Growth g = byProcess.getValue();
                double perStopLimit = perStopLimit(figure, byProcess.getKey());
                boolean hourOk = !Double.isNaN(g.perHour()) && g.perHour() <= limit.perHour();
                boolean stopOk = !g.stopsJudged() || g.perStop() <= perStopLimit;
                List<Double> levels = g.levels();
                table.row(List.of(
                        figure.title,
                        byProcess.getKey(),
                        figure.unit,
                        levels.isEmpty() ? "-" : number(levels.get(0)),
                        levels.isEmpty() ? "-" : number(levels.get(levels.size() - 1)),
                        String.format(Locale.ROOT, "%+.2f (%s)", g.perHour(), limit(limit.perHour())),
                        g.stopsJudged()
                                ? String.format(Locale.ROOT, "%+.2f (%s)", g.perStop(), limit(perStopLimit))
                                : "-",
                        hourOk && stopOk ? "held" : "**grew**"));
            }
        }
        md.append(table).append('\n');
        if (!notSampled.isEmpty()) {
            md.append("Not sampled (the process gave no reading): ")
                    .append(String.join("; ", notSampled))
                    .append(". The HTTP pools' gauges are read by the names in PluginGauges; a plugin without them"
                            + " reads none.\n\n");
        }
        if (!p99s.isEmpty()) {
            md.append("Checkpoint duration p99, first and last third: ");
            List<String> parts = new ArrayList<>();
            p99s.forEach(
                    (job, p) -> parts.add(String.format(Locale.ROOT, "%s job %.0f ms and %.0f ms", job, p[0], p[1])));
            md.append(String.join("; ", parts)).append(".\n\n");
        }
    }

    private void appendKills(StringBuilder md) {
        md.append("## TaskManagers stopped\n\n");
        md.append("How: ").append(soak.taskManagerStop()).append("\n\n");
        if (soak.kills().isEmpty()) {
            md.append("None.\n\n");
            return;
        }
        MarkdownTable table = new MarkdownTable(List.of(
                "stopped at",
                "process",
                "main job's checkpoint in progress",
                "restored from (per job)",
                "uploads open at the server",
                "recovered and verified after",
                "verified"));
        for (SoakOutcome.Kill kill : soak.kills()) {
            table.row(List.of(
                    Instant.ofEpochMilli(kill.epochMillis()).toString(),
                    stopped(kill),
                    kill.checkpointInProgress() > 0 ? Long.toString(kill.checkpointInProgress()) : "none seen",
                    kill.restoredCheckpoints().toString(),
                    Long.toString(kill.uploadsOpenAtServer()),
                    kill.recoveryMs() < 0 ? "-" : String.format(Locale.ROOT, "%.1f s", kill.recoveryMs() / 1000.0),
                    kill.verified() ? "yes" : "**no**"));
        }
        md.append(table).append('\n');
    }

    private void appendCheckpoints(StringBuilder md) {
        md.append("## Checkpoints\n\n");
        for (SoakOutcome.JobOutcome job : soak.jobs()) {
            List<SoakOutcome.Checkpoint> all = job.checkpoints();
            long failed = all.stream().filter(c -> !c.completed()).count();
            md.append(String.format(
                    Locale.ROOT, "%s job: %d completed, %d failed.\n\n", job.name(), all.size() - failed, failed));
            if (failed == 0) {
                continue;
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
            reasons.forEach((reason, count) ->
                    table.row(List.of(reason.replace('|', '/').replace('\n', ' '), count.toString())));
            md.append(table).append('\n');
        }
    }

    private void appendVerification(StringBuilder md) {
        md.append("## End verification\n\n");
        for (SoakOutcome.JobOutcome job : soak.jobs()) {
            md.append("- ")
                    .append(job.name())
                    .append(" job: state digest ")
                    .append(job.liveDigest())
                    .append(" when cancelled, expected ")
                    .append(job.expectedDigest())
                    .append(" (")
                    .append(job.expectedKeys())
                    .append(" keys, computed from the record generator without Flink)");
            RestoreResult restore = job.finalRestore();
            if (restore != null) {
                md.append("; restored from checkpoint ")
                        .append(restore.checkpointId())
                        .append(": ")
                        .append(restore.verified() ? "verified" : "NOT verified");
            }
            md.append(".\n");
            SinkVerification sink = job.sink();
            if (sink != null) {
                md.append(String.format(
                        Locale.ROOT,
                        "- %s job's FileSink: %,d of %,d records in %d committed part files, %d duplicates, %d"
                                + " missing, %d uncommitted files left: %s.\n",
                        job.name(),
                        sink.distinct(),
                        sink.expected(),
                        sink.partFiles(),
                        sink.duplicates(),
                        sink.missing(),
                        sink.uncommittedFiles(),
                        sink.exactlyOnce() ? "exactly once" : "NOT exactly once"));
            }
        }
        SoakOutcome.UploadsAtEnd uploads = soak.uploadsAtEnd();
        if (uploads != null) {
            md.append(String.format(
                    Locale.ROOT,
                    "- Multipart uploads open at the server after the jobs ended: %d of checkpoint and state files,"
                            + " %d of sink part files, with %d TaskManagers stopped during the run.%s\n",
                    uploads.checkpointStreams(),
                    uploads.sinkFiles(),
                    soak.kills().size(),
                    uploads.keys().isEmpty() ? "" : " Keys: " + String.join(", ", uploads.keys())));
        }
        md.append('\n');
    }

    private void writeChart(Path directory, SoakFigure figure, long t0) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        if (figure.atServer()) {
            XYSeries series = new XYSeries(SERVER);
            for (ServerSample sample : soak.server()) {
                long value = figure.server.applyAsLong(sample);
                if (value >= 0) {
                    series.add((sample.epochMillis() - t0) / 60_000.0, value / figure.scale);
                }
            }
            data.addSeries(series);
        } else {
            Map<String, XYSeries> byProcess = new LinkedHashMap<>();
            for (SoakSample sample : soak.samples()) {
                long value = figure.process.applyAsLong(sample);
                if (value >= 0) {
                    byProcess
                            .computeIfAbsent(sample.process(), XYSeries::new)
                            .add((sample.epochMillis() - t0) / 60_000.0, value / figure.scale);
                }
            }
            byProcess.values().forEach(data::addSeries);
        }
        saveChart(
                directory.resolve(figure.chartFile()), figure.title, figure.unit, data, t0, data.getSeriesCount() > 1);
    }

    private void writeCheckpointChart(Path directory, long t0) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        for (SoakOutcome.JobOutcome job : soak.jobs()) {
            XYSeries series = new XYSeries(job.name() + " job");
            for (SoakOutcome.Checkpoint c : job.checkpoints()) {
                if (c.completed()) {
                    series.add((c.triggerEpochMillis() - t0) / 60_000.0, c.durationMs());
                }
            }
            data.addSeries(series);
        }
        saveChart(
                directory.resolve("soak-checkpoint-duration.png"),
                "checkpoint duration (completed)",
                "ms",
                data,
                t0,
                data.getSeriesCount() > 1);
    }

    private void saveChart(Path file, String title, String unit, XYSeriesCollection data, long t0, boolean legend)
            throws IOException {
        JFreeChart chart = ChartFactory.createXYLineChart(
                title,
                "minutes since the first sample (red: TaskManager stopped)",
                unit,
                data,
                PlotOrientation.VERTICAL,
                legend,
                false,
                false);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        for (SoakOutcome.Kill kill : soak.kills()) {
            ValueMarker marker = new ValueMarker((kill.epochMillis() - t0) / 60_000.0);
            marker.setPaint(new Color(0xd62728));
            marker.setStroke(new BasicStroke(1f));
            plot.addDomainMarker(marker);
        }
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 400);
    }

    private static String limit(double limit) {
        return Double.isInfinite(limit) ? "not judged" : number(limit);
    }

    private static String stopped(SoakOutcome.Kill kill) {
        return kill.killedProcess().isEmpty() ? "the MiniCluster's TaskManager" : kill.killedProcess();
    }

    private static String levels(Growth g) {
        List<String> parts = new ArrayList<>();
        g.levels().forEach(l -> parts.add(number(l)));
        return "[" + String.join(", ", parts) + "]";
    }

    private static String number(double value) {
        return Math.abs(value) >= 100 || value == Math.rint(value)
                ? String.format(Locale.ROOT, "%,.0f", value)
                : String.format(Locale.ROOT, "%.2f", value);
    }
}
