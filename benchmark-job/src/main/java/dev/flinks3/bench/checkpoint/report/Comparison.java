package dev.flinks3.bench.checkpoint.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * Compares contenders over all rounds: each figure's mean with min and max, a flag when rounds differ
 * by more than {@value #SPREAD_FLAG}x, the correctness gate, and the ratios of the baseline to each
 * rival ("ours vs presto: 2.17x checkpoint throughput"; restore speed is the rival's restore time over
 * ours, so above 1 means ours restores faster). Ratios are given only between contenders whose every
 * run passed the gate: all records processed, the restore verified where the run restored (a cluster run
 * read from the REST API may not have restored), and the same final state digest as every other passing
 * run (equal parameters give byte-identical state). A figure a run did not measure (a restore that did not
 * run, a failed run's checkpoints, the CPU of a cluster run) is left out of its spread and its ratio, never
 * counted as 0.
 */
public final class Comparison {

    /** Rounds whose max/min exceeds this are flagged as noisy. */
    public static final double SPREAD_FLAG = 1.25;

    /**
     * A figure over rounds, from the rounds that measured it (a run without a restore has no restore time, a
     * failed run no checkpoint duration); {@link #NONE} when none did.
     */
    public record Spread(double mean, double min, double max) {

        /** The spread of a figure no round measured. */
        public static final Spread NONE = new Spread(Double.NaN, Double.NaN, Double.NaN);

        /** @param figure the run's figure, NaN where the run did not measure it */
        static Spread of(List<RunFigures> runs, ToDoubleFunction<RunFigures> figure) {
            double[] values = runs.stream().mapToDouble(figure).filter(v -> !Double.isNaN(v)).toArray();
            if (values.length == 0) {
                return NONE;
            }
            double sum = 0;
            double min = Double.MAX_VALUE;
            double max = -Double.MAX_VALUE;
            for (double v : values) {
                sum += v;
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            return new Spread(sum / values.length, min, max);
        }

        /** Whether some round measured the figure. */
        public boolean measured() {
            return !Double.isNaN(mean);
        }

        /** Whether the rounds differ by more than {@link #SPREAD_FLAG}x. */
        public boolean noisy() {
            return min > 0 && max / min > SPREAD_FLAG;
        }

        /** The mean, with (min–max) when rounds differ and ⚠ when noisy; {@code -} when not measured. */
        public String format(String pattern) {
            if (!measured()) {
                return "-";
            }
            String text = String.format(Locale.ROOT, pattern, mean);
            if (max > min) {
                text += String.format(Locale.ROOT, " (" + pattern + "–" + pattern + ")", min, max);
            }
            return noisy() ? text + " ⚠" : text;
        }
    }

    /** One contender's figures over its rounds. */
    public record ContenderFigures(String name, List<RunFigures> runs, boolean passed, String gateNote,
            Spread throughputMbPerSecond, Spread p50DurationMs, Spread p90DurationMs, Spread p99DurationMs,
            Spread restoreMs, Spread cpuSeconds) {}

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
            List<RunFigures> own = runs.stream().filter(r -> r.contender().equals(name)).toList();
            List<String> problems = new ArrayList<>();
            for (RunFigures run : own) {
                gateProblem(run, referenceDigest.orElse("")).ifPresent(problems::add);
            }
            contenders.put(name, new ContenderFigures(name, own, problems.isEmpty() && !own.isEmpty(),
                    String.join("; ", problems),
                    Spread.of(own, r -> checkpointFigure(r, r.summary().avgThroughputMbPerSecond())),
                    Spread.of(own, r -> checkpointFigure(r, r.summary().durationMs().p50())),
                    Spread.of(own, r -> checkpointFigure(r, r.summary().durationMs().p90())),
                    Spread.of(own, r -> checkpointFigure(r, r.summary().durationMs().p99())),
                    Spread.of(own, r -> r.hasRestoreTime() ? r.restoreMs() : Double.NaN),
                    Spread.of(own, r -> r.result().clientCpuSeconds() > 0 ? r.result().clientCpuSeconds()
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
                lines.add(String.format(Locale.ROOT, "%s vs %s: no ratio, %s did not pass the correctness gate", baseline,
                        rival.name(), ours.passed() ? rival.name() : baseline));
                continue;
            }
            List<String> ratios = new ArrayList<>();
            ratios.add(ratio("%.2fx checkpoint throughput (%.1f vs %.1f MB/s)", ours.throughputMbPerSecond(),
                    rival.throughputMbPerSecond(), false, 1));
            ratios.add(ratio("%.2fx restore speed (%.2f vs %.2f s)", ours.restoreMs(), rival.restoreMs(), true,
                    1000));
            ratios.add(ratio("%.2fx contender JVM CPU (%.1f vs %.1f s)", ours.cpuSeconds(), rival.cpuSeconds(),
                    false, 1));
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
        if (!ours.measured() || !rival.measured()) {
            return "";
        }
        double ratio = inverse ? ratio(rival.mean(), ours.mean()) : ratio(ours.mean(), rival.mean());
        return String.format(Locale.ROOT, pattern, ratio, ours.mean() / unit, rival.mean() / unit);
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
            return Optional.of(run.label() + " ended with state digest " + run.result().run().stateDigest()
                    + ", others with " + referenceDigest);
        }
        return Optional.empty();
    }
}
