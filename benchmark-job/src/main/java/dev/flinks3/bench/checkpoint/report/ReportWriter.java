package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes {@code report.md} and {@code charts/*.png} for a {@link BenchmarkResults} into an output folder. */
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
     * Writes the charts and the report.
     *
     * @return the report's path
     * @throws IOException if a file cannot be written
     */
    public Path write(BenchmarkResults results) throws IOException {
        List<RunFigures> runs = RunFigures.of(results.contenders(), results.configuration().rounds());
        List<String> charts = new Charts(output.resolve(CHARTS)).write(runs);
        Path report = output.resolve(REPORT);
        Files.writeString(report, new MarkdownReport(results, runs, charts).render());
        return report;
    }
}
