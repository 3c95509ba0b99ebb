package dev.flinks3.bench.checkpoint.results;

import java.util.List;

/**
 * The content of {@code results.json}: when and where the benchmark ran, what it was asked to do, and
 * every contender's run (one per contender and round).
 *
 * @param date ISO-8601 instant the benchmark started
 * @param machine the machine
 * @param configuration the parameters
 * @param contenders one entry per contender and round, in run order
 * @param s3Faults the faults the embedded server injected, or null if it injected none by design
 */
public record BenchmarkResults(
        String date,
        Machine machine,
        RunConfiguration configuration,
        List<ContenderResult> contenders,
        S3Faults s3Faults) {

    public BenchmarkResults {
        contenders = List.copyOf(contenders);
    }

    /** Results of a benchmark without a fault profile. */
    public BenchmarkResults(
            String date, Machine machine, RunConfiguration configuration, List<ContenderResult> contenders) {
        this(date, machine, configuration, contenders, null);
    }
}
