package dev.flinks3.bench.checkpoint.results;

import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /**
     * The results in {@code file}, named by {@code option} of a command line.
     *
     * @throws UsageException naming the option and the file if it does not exist or is not a results.json
     */
    public static BenchmarkResults read(String option, Path file) {
        if (!Files.isRegularFile(file)) {
            throw new UsageException(option + " " + file + ": no such file; expected the results.json a run wrote");
        }
        try {
            return Json.read(file, BenchmarkResults.class);
        } catch (IOException e) {
            throw new UsageException(
                    option + " " + file + ": not a results.json of this benchmark (" + e.getMessage() + ")", e);
        }
    }

    /** Results of a benchmark without a fault profile. */
    public BenchmarkResults(
            String date, Machine machine, RunConfiguration configuration, List<ContenderResult> contenders) {
        this(date, machine, configuration, contenders, null);
    }
}
