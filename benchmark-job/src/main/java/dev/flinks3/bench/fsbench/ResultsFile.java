package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.fsbench.report.Comparison;
import dev.flinks3.bench.fsbench.report.Metric;
import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The content of {@code results.json}: what was run, every workload result of every round, and the
 * ratios of ours to each rival.
 *
 * @param run what was compared and how
 * @param fileSystemClasses the filesystem class each contender's plugin created
 * @param warmUpFailures contenders whose warm-up failed, with the first failure
 * @param results every workload of every contender and round
 * @param ratios ours over each rival per workload and figure (means over the rounds)
 */
public record ResultsFile(
        RunDescription run,
        Map<String, String> fileSystemClasses,
        List<String> warmUpFailures,
        List<WorkloadResult> results,
        List<Ratio> ratios) {

    /**
     * Ours over a rival for one figure of one workload.
     *
     * @param workload the workload
     * @param rival the rival
     * @param metric the figure
     * @param ratio ours' mean over the rival's mean
     */
    public record Ratio(FsWorkload workload, String rival, Metric metric, double ratio) {}

    public ResultsFile {
        fileSystemClasses = Map.copyOf(fileSystemClasses);
        warmUpFailures = List.copyOf(warmUpFailures);
        results = List.copyOf(results);
        ratios = List.copyOf(ratios);
    }

    /** Every ratio the comparison has. */
    static List<Ratio> ratios(Comparison comparison) {
        List<Ratio> ratios = new ArrayList<>();
        for (FsWorkload workload : comparison.workloads()) {
            for (String rival : comparison.rivals()) {
                for (Metric metric : Metric.values()) {
                    OptionalDouble ratio = comparison.ratio(workload, metric, rival);
                    if (ratio.isPresent()) {
                        ratios.add(new Ratio(workload, rival, metric, ratio.getAsDouble()));
                    }
                }
            }
        }
        return ratios;
    }
}
