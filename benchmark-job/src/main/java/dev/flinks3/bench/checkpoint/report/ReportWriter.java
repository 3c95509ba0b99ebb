package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code report.md} and {@code charts/*.png} into an output folder, for one {@link BenchmarkResults} or
 * for several side by side (the same tables and charts as a {@code compare} run's report).
 */
public final class ReportWriter {

    /** The report's file name. */
    public static final String REPORT = "report.md";

    /** The charts' folder name. */
    public static final String CHARTS = "charts";

    private final Path output;

    public ReportWriter(Path output) {
        this.output = output;
    }

    /**
     * Writes the charts and the report of one benchmark.
     *
     * @return the report's path
     * @throws IOException if a file cannot be written
     */
    public Path write(BenchmarkResults results) throws IOException {
        return write(ResultsSet.of(results));
    }

    /**
     * Writes one report of several benchmarks' results, e.g. two cluster runs each read into its own
     * {@code results.json}; a contender found in several counts each one's runs as further rounds.
     *
     * @param sources results by the name the report gives each (its file name), in report order; at least one
     * @return the report's path
     * @throws IOException if a file cannot be written
     * @throws IllegalArgumentException if {@code sources} is empty
     */
    public Path write(Map<String, BenchmarkResults> sources) throws IOException {
        return write(new ResultsSet(sources));
    }

    private Path write(ResultsSet results) throws IOException {
        List<RunFigures> runs = RunFigures.of(results.runs());
        Comparison comparison = new Comparison(runs, results.contenders());
        ContenderColours colours = new ContenderColours(results.contenders());
        List<String> charts = new Charts(output.resolve(CHARTS), colours).write(runs, comparison);
        Path report = output.resolve(REPORT);
        Files.writeString(report, new MarkdownReport(results, runs, comparison, charts).render());
        return report;
    }
}
