package dev.flinks3.bench.fsbench.report;

import dev.flinks3.bench.common.Spread;
import dev.flinks3.bench.fsbench.WorkloadResult;
import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * All rounds of a run folded into one cell per workload and contender, and the ratios of the
 * baseline contender (ours) to each rival. A contender that failed a workload in any round, or
 * returned wrong bytes, has a failed cell for it and no ratio: wrong is not fast.
 */
public final class Comparison {

    /**
     * One workload of one contender over all its rounds.
     *
     * @param spreads each figure's spread over the rounds; empty if the workload failed
     * @param failures why rounds failed, empty if none did
     */
    public record Cell(Map<Metric, Spread> spreads, List<String> failures) {

        public Cell {
            spreads = Map.copyOf(spreads);
            failures = List.copyOf(failures);
        }

        /** Whether any round failed. */
        public boolean failed() {
            return !failures.isEmpty();
        }

        /** One figure's spread; only for cells that did not fail. */
        public Spread spread(Metric metric) {
            Spread spread = spreads.get(metric);
            if (spread == null) {
                throw new IllegalStateException("no " + metric + " for a failed cell");
            }
            return spread;
        }
    }

    private final List<String> contenders;
    private final String baseline;
    private final Map<FsWorkload, Map<String, Cell>> cells;

    private Comparison(List<String> contenders, String baseline, Map<FsWorkload, Map<String, Cell>> cells) {
        this.contenders = contenders;
        this.baseline = baseline;
        this.cells = cells;
    }

    /**
     * Folds the results of all rounds.
     *
     * @param contenders contender names in report order
     * @param baseline the contender ratios are taken of (ours); need not be among the contenders
     * @param results every workload result of every round
     */
    public static Comparison of(List<String> contenders, String baseline, List<WorkloadResult> results) {
        Map<FsWorkload, Map<String, Cell>> cells = new EnumMap<>(FsWorkload.class);
        for (FsWorkload workload : FsWorkload.values()) {
            Map<String, Cell> row = new LinkedHashMap<>();
            for (String contender : contenders) {
                List<WorkloadResult> rounds = results.stream()
                        .filter(r -> r.workload() == workload && r.contender().equals(contender))
                        .toList();
                if (!rounds.isEmpty()) {
                    row.put(contender, cell(rounds));
                }
            }
            if (!row.isEmpty()) {
                cells.put(workload, row);
            }
        }
        return new Comparison(List.copyOf(contenders), baseline, cells);
    }

    private static Cell cell(List<WorkloadResult> rounds) {
        List<String> failures = rounds.stream()
                .filter(WorkloadResult::failed)
                .map(r -> "round " + r.round() + ": " + r.failure())
                .toList();
        Map<Metric, Spread> spreads = new EnumMap<>(Metric.class);
        if (failures.isEmpty()) {
            for (Metric metric : Metric.values()) {
                List<Double> values = new ArrayList<>();
                rounds.forEach(r -> values.add(metric.of(r)));
                spreads.put(metric, Spread.of(values));
            }
        }
        return new Cell(spreads, failures);
    }

    /** Contender names in report order. */
    public List<String> contenders() {
        return contenders;
    }

    /** The contender ratios are taken of. */
    public String baseline() {
        return baseline;
    }

    /** Contenders other than the baseline, in report order. */
    public List<String> rivals() {
        return contenders.stream().filter(c -> !c.equals(baseline)).toList();
    }

    /** The workloads some contender ran, in workload order. */
    public List<FsWorkload> workloads() {
        return List.copyOf(cells.keySet());
    }

    /** The cell of one workload and contender, empty if the contender did not run it. */
    public Optional<Cell> cell(FsWorkload workload, String contender) {
        return Optional.ofNullable(cells.getOrDefault(workload, Map.of()).get(contender));
    }

    /**
     * The baseline's mean over the rival's mean of one figure: above 1 means the baseline has more of
     * it (faster for throughput, costlier for the other figures). Empty when either failed or did not
     * run, or when the rival's mean is zero.
     */
    public OptionalDouble ratio(FsWorkload workload, Metric metric, String rival) {
        Optional<Cell> ours = cell(workload, baseline);
        Optional<Cell> theirs = cell(workload, rival);
        if (ours.isEmpty()
                || theirs.isEmpty()
                || ours.get().failed()
                || theirs.get().failed()) {
            return OptionalDouble.empty();
        }
        double denominator = theirs.get().spread(metric).mean();
        if (denominator == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(ours.get().spread(metric).mean() / denominator);
    }
}
