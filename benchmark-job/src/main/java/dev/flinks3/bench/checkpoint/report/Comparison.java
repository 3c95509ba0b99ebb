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
 * run passed the gate: all records processed, restore verified, and the same final state digest as
 * every other passing run (equal parameters give byte-identical state).
 */
public final class Comparison {

    /** One contender's figures over its rounds. */
    public record ContenderFigures(String name, List<RunFigures> runs, boolean passed, String gateNote,
            Spread throughputMbPerSecond, Spread p50DurationMs, Spread p99DurationMs, Spread restoreMs,
            Spread cpuSeconds) {}

    private final Map<String, ContenderFigures> contenders = new LinkedHashMap<>();
    private final String baseline;

    /**
     * @param runs every run, any order
     * @param contenderOrder contender names in report order
     * @param totalRecords the records every run must have processed
     */
    public Comparison(List<RunFigures> runs, List<String> contenderOrder, long totalRecords) {
        Optional<String> referenceDigest = runs.stream()
                .filter(r -> r.result().succeeded())
                .map(r -> r.result().run().stateDigest())
                .findFirst();
        for (String name : contenderOrder) {
            List<RunFigures> own = runs.stream().filter(r -> r.contender().equals(name)).toList();
            List<String> problems = new ArrayList<>();
            for (RunFigures run : own) {
                gateProblem(run, totalRecords, referenceDigest.orElse("")).ifPresent(problems::add);
            }
            contenders.put(name, new ContenderFigures(name, own, problems.isEmpty() && !own.isEmpty(),
                    String.join("; ", problems),
                    spread(own, r -> r.summary().avgThroughputMbPerSecond()),
                    spread(own, r -> r.summary().durationMs().p50()),
                    spread(own, r -> r.summary().durationMs().p99()),
                    spread(own, RunFigures::restoreMs),
                    spread(own, r -> r.result().clientCpuSeconds())));
        }
        this.baseline = contenderOrder.contains("ours") ? "ours" : contenderOrder.get(0);
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
            lines.add(String.format(Locale.ROOT,
                    "%s vs %s: %.2fx checkpoint throughput (%.1f vs %.1f MB/s), %.2fx restore speed (%.2f vs %.2f s), "
                            + "%.2fx contender JVM CPU (%.1f vs %.1f s)",
                    baseline, rival.name(),
                    ratio(ours.throughputMbPerSecond().mean(), rival.throughputMbPerSecond().mean()),
                    ours.throughputMbPerSecond().mean(), rival.throughputMbPerSecond().mean(),
                    ratio(rival.restoreMs().mean(), ours.restoreMs().mean()),
                    ours.restoreMs().mean() / 1000, rival.restoreMs().mean() / 1000,
                    ratio(ours.cpuSeconds().mean(), rival.cpuSeconds().mean()),
                    ours.cpuSeconds().mean(), rival.cpuSeconds().mean()));
        }
        return lines;
    }

    /** A figure over some runs; all zero for none (a contender that did not run). */
    static Spread spread(List<RunFigures> runs, ToDoubleFunction<RunFigures> figure) {
        return runs.isEmpty() ? new Spread(0, 0, 0, 0) : Spread.of(runs.stream().map(figure::applyAsDouble).toList());
    }

    /**
     * The mean in {@code pattern}, then {@code (min–max)} when the rounds differ and a warning sign when
     * they differ by more than {@link Spread#FLAG_RATIO} (a figure that was zero in some round is not flagged).
     */
    public static String format(Spread spread, String pattern) {
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

    private static Optional<String> gateProblem(RunFigures run, long totalRecords, String referenceDigest) {
        if (!run.result().error().isEmpty()) {
            return Optional.of(run.label() + " failed: " + run.result().error());
        }
        if (!run.result().succeeded()) {
            return Optional.of(run.label() + ": restore not verified");
        }
        if (run.result().run().recordsProcessed() != totalRecords) {
            return Optional.of(run.label() + " processed " + run.result().run().recordsProcessed() + " of "
                    + totalRecords + " records");
        }
        if (!run.result().run().stateDigest().equals(referenceDigest)) {
            return Optional.of(run.label() + " ended with state digest " + run.result().run().stateDigest()
                    + ", others with " + referenceDigest);
        }
        return Optional.empty();
    }
}
