package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.common.Spread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * Compares contenders over all rounds: each figure's mean with min and max, a flag when rounds differ
 * by more than {@value Spread#FLAG_RATIO}x, the correctness gate, and the ratios of the baseline to each
 * rival ("ours vs presto: 2.17x checkpoint throughput"; restore speed is the rival's restore time over
 * ours, so above 1 means ours restores faster). Ratios are given only between contenders whose every
 * run passed the gate: all records processed, the restore verified where the run restored (a cluster run
 * read from the REST API may not have restored), and the same final state digest as every other passing
 * run (equal parameters give byte-identical state). A figure a run did not measure (a restore that did not
 * run, a failed run's checkpoints, the CPU of a cluster run) is left out of its spread and its ratio, never
 * counted as 0.
 */
public final class Comparison {

    /** One contender's figures over its rounds. */
    public record ContenderFigures(
            String name,
            List<RunFigures> runs,
            boolean passed,
            String gateNote,
            Spread throughputMbPerSecond,
            Spread p50DurationMs,
            Spread p90DurationMs,
            Spread p99DurationMs,
            Spread restoreMs,
            Spread cpuSeconds) {}

    private final Map<String, ContenderFigures> contenders = new LinkedHashMap<>();
    private final String baseline;

    /**
     * @param runs every run, any order; each must have processed all the records its own source emitted
     * @param contenderOrder contender names in report order
     */
    public Comparison(List<RunFigures> runs, List<String> contenderOrder) {
        Optional<String> referenceDigest = runs.stream()
                .filter(r -> gateProblem(r, null).isEmpty())
                .map(r -> r.result().run().stateDigest())
                .findFirst();
        for (String name : contenderOrder) {
            List<RunFigures> own =
                    runs.stream().filter(r -> r.contender().equals(name)).toList();
            List<String> problems = new ArrayList<>();
            for (RunFigures run : own) {
                gateProblem(run, referenceDigest.orElse("")).ifPresent(problems::add);
            }
            contenders.put(
                    name,
                    new ContenderFigures(
                            name,
                            own,
                            problems.isEmpty() && !own.isEmpty(),
                            String.join("; ", problems),
                            spread(own, r -> checkpointFigure(r, r.summary().avgThroughputMbPerSecond())),
                            spread(
                                    own,
                                    r -> checkpointFigure(
                                            r, r.summary().durationMs().p50())),
                            spread(
                                    own,
                                    r -> checkpointFigure(
                                            r, r.summary().durationMs().p90())),
                            spread(
                                    own,
                                    r -> checkpointFigure(
                                            r, r.summary().durationMs().p99())),
                            spread(own, r -> r.hasRestoreTime() ? r.restoreMs() : Double.NaN),
                            spread(
                                    own,
                                    r -> r.result().clientCpuSeconds() > 0
                                            ? r.result().clientCpuSeconds()
                                            : Double.NaN)));
        }
        this.baseline = contenderOrder.contains("ours") ? "ours" : contenderOrder.get(0);
    }

    /** A figure of the run's completed checkpoints, NaN for a run that completed none. */
    private static double checkpointFigure(RunFigures run, double figure) {
        return run.hasCheckpointFigures() ? figure : Double.NaN;
    }

    public List<ContenderFigures> contenders() {
        return List.copyOf(contenders.values());
    }

    public String baseline() {
        return baseline;
    }

    /** Whether every contender passed the gate. */
    public boolean allPassed() {
        return contenders.values().stream().allMatch(ContenderFigures::passed);
    }

    /**
     * One line per rival: the baseline's ratios to it, or why there is none.
     */
    public List<String> ratioLines() {
        ContenderFigures ours = contenders.get(baseline);
        List<String> lines = new ArrayList<>();
        for (ContenderFigures rival : contenders.values()) {
            if (rival.name().equals(baseline)) {
                continue;
            }
            if (!ours.passed() || !rival.passed()) {
                lines.add(String.format(
                        Locale.ROOT,
                        "%s vs %s: no ratio, %s did not pass the correctness gate",
                        baseline,
                        rival.name(),
                        ours.passed() ? rival.name() : baseline));
                continue;
            }
            List<String> ratios = new ArrayList<>();
            ratios.add(ratio(
                    "%.2fx checkpoint throughput (%.1f vs %.1f MB/s)",
                    ours.throughputMbPerSecond(), rival.throughputMbPerSecond(), false, 1));
            ratios.add(ratio("%.2fx restore speed (%.2f vs %.2f s)", ours.restoreMs(), rival.restoreMs(), true, 1000));
            ratios.add(
                    ratio("%.2fx contender JVM CPU (%.1f vs %.1f s)", ours.cpuSeconds(), rival.cpuSeconds(), false, 1));
            ratios.removeIf(String::isEmpty);
            lines.add(baseline + " vs " + rival.name() + ": "
                    + (ratios.isEmpty() ? "no figure measured for both" : String.join(", ", ratios)));
        }
        return lines;
    }

    /**
     * The ratio of two figures with both values ({@code pattern}'s second and third argument, divided by
     * {@code unit}); empty when either was not measured.
     *
     * @param inverse whether the ratio is the rival's over ours (for times, where less is faster)
     */
    private static String ratio(String pattern, Spread ours, Spread rival, boolean inverse, double unit) {
        if (!measured(ours) || !measured(rival)) {
            return "";
        }
        double ratio = inverse ? ratio(rival.mean(), ours.mean()) : ratio(ours.mean(), rival.mean());
        return String.format(Locale.ROOT, pattern, ratio, ours.mean() / unit, rival.mean() / unit);
    }

    /**
     * A figure over the runs that measured it ({@code figure} is NaN for a run that did not); no values
     * ({@code count} 0, mean NaN) when none did.
     */
    static Spread spread(List<RunFigures> runs, ToDoubleFunction<RunFigures> figure) {
        List<Double> values = runs.stream()
                .map(figure::applyAsDouble)
                .filter(v -> !Double.isNaN(v))
                .toList();
        return values.isEmpty() ? new Spread(Double.NaN, Double.NaN, Double.NaN, 0) : Spread.of(values);
    }

    /** Whether some round measured the figure. */
    static boolean measured(Spread spread) {
        return spread.count() > 0;
    }

    /**
     * The mean in {@code pattern}, then {@code (min–max)} when the rounds differ and a warning sign when
     * they differ by more than {@link Spread#FLAG_RATIO} (a figure that was zero in some round is not flagged);
     * {@code -} when no round measured it.
     */
    public static String format(Spread spread, String pattern) {
        if (!measured(spread)) {
            return "-";
        }
        String text = String.format(Locale.ROOT, pattern, spread.mean());
        if (spread.max() > spread.min()) {
            text += String.format(Locale.ROOT, " (" + pattern + "–" + pattern + ")", spread.min(), spread.max());
        }
        return spread.min() > 0 && spread.flagged() ? text + " ⚠" : text;
    }

    /** {@code a / b}, or NaN when {@code b} is 0. */
    static double ratio(double a, double b) {
        return b == 0 ? Double.NaN : a / b;
    }

    /** Why the run fails the gate, if it does; {@code referenceDigest} null to leave the digest unchecked. */
    private static Optional<String> gateProblem(RunFigures run, String referenceDigest) {
        if (!run.result().error().isEmpty()) {
            return Optional.of(run.label() + " failed: " + run.result().error());
        }
        if (run.result().run() == null) {
            return Optional.of(run.label() + " recorded no figures");
        }
        if (run.restore() != null && !run.restore().verified()) {
            return Optional.of(run.label() + ": restore not verified");
        }
        long totalRecords = run.result().run().totalRecords();
        if (run.result().run().recordsProcessed() != totalRecords) {
            return Optional.of(run.label() + " processed " + run.result().run().recordsProcessed() + " of "
                    + totalRecords + " records");
        }
        if (referenceDigest != null && !run.result().run().stateDigest().equals(referenceDigest)) {
            return Optional.of(run.label() + " ended with state digest "
                    + run.result().run().stateDigest() + ", others with " + referenceDigest);
        }
        return Optional.empty();
    }
}
