package dev.flinks3.bench.checkpoint.report;

import static dev.flinks3.bench.checkpoint.report.ResultsSamples.DIGEST;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.PluginMetrics;
import dev.flinks3.bench.checkpoint.stats.CheckpointSummary;
import dev.flinks3.bench.common.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReportWriterTest {

    @TempDir
    Path output;

    @Test
    void writesAReportWhoseFiguresComeFromTheResultsAndItsCharts() throws Exception {
        BenchmarkResults results = ResultsSamples.results(
                List.of("ours", "presto"),
                1,
                List.of(
                        ResultsSamples.run("ours", 1, 1.0, 1000, DIGEST),
                        ResultsSamples.run("presto", 1, 2.0, 2500, DIGEST)));
        Json.write(output.resolve("results.json"), results);
        BenchmarkResults reread = Json.read(output.resolve("results.json"), BenchmarkResults.class);

        Path report = new ReportWriter(output).write(reread);

        String md = Files.readString(report);
        CheckpointSummary ours =
                CheckpointSummary.of(reread.contenders().get(0).run().checkpoints());
        assertThat(md)
                .contains(String.format(
                        Locale.ROOT,
                        "| avg throughput (MB/s) | %.1f | %.1f |",
                        ours.avgThroughputMbPerSecond(),
                        ours.avgThroughputMbPerSecond() / 2));
        assertThat(md)
                .contains(
                        "| checkpoints completed | 4 | 4 |",
                        "| checkpoints failed | 1 | 1 |",
                        "| restore: submission to all RUNNING (s) | 1.00 | 2.50 |",
                        "| restore verified | yes | yes |",
                        // 3,000 records in 25 s and 50 s; no checkpointing-phase traffic in the samples.
                        "| records/s processed | 120.0 | 60.0 |");
        assertThat(md).as("a row no run measured").doesNotContain("S3 bytes read per record");
        double gb = ours.checkpointedSizeBytes().avg() * ours.completed() / 1e9;
        assertThat(md)
                .contains(
                        "| S3 server CPU (s) | 8.0 | 16.0 |",
                        String.format(
                                Locale.ROOT,
                                "| contender JVM CPU per GB checkpointed (s) | %.1f | %.1f |",
                                20.0 / gb,
                                40.0 / gb));
        assertThat(md)
                .contains(
                        "## Comparison",
                        "ours vs presto: 2.00x checkpoint throughput",
                        "2.50x restore speed",
                        "## Run: ours",
                        "### Checkpoint percentiles",
                        "### Throughput by state size",
                        "### Restore",
                        "### S3 requests");
        for (String chart : List.of(
                Charts.DURATION,
                Charts.DURATION_OVER_TIME,
                Charts.STATE_SIZE,
                Charts.CHECKPOINTED_SIZE_OVER_TIME,
                Charts.THROUGHPUT,
                Charts.PERCENTILES,
                Charts.RESTORE)) {
            Path png = output.resolve(ReportWriter.CHARTS).resolve(chart);
            assertThat(ImageIO.read(png.toFile())).as(chart).isNotNull();
            assertThat(md).contains("](charts/" + chart + ")");
        }
    }

    @Test
    void thePluginsOwnMetricsAppearForTheContenderThatHasThemAndADashForTheOthers() throws Exception {
        ContenderResult ours = ResultsSamples.run("ours", 1, 1.0, 1000, DIGEST)
                .withPluginMetrics(new PluginMetrics(
                        120,
                        1,
                        7,
                        5,
                        0,
                        300_000_000L,
                        94_400_618L,
                        64_000_000L,
                        16_000_000L,
                        2500,
                        Map.of("UploadPart", 80L, "GetObject", 30L, "PutObject", 10L)));
        BenchmarkResults results = ResultsSamples.results(
                List.of("ours", "presto"), 1, List.of(ours, ResultsSamples.run("presto", 1, 2.0, 2500, DIGEST)));
        Json.write(output.resolve("results.json"), results);
        BenchmarkResults reread = Json.read(output.resolve("results.json"), BenchmarkResults.class);

        String md = Files.readString(new ReportWriter(output).write(reread));

        assertThat(reread.contenders().get(0).pluginMetrics()).isEqualTo(ours.pluginMetrics());
        assertThat(reread.contenders().get(1).pluginMetrics()).isNull();
        assertThat(md)
                .contains(
                        "| plugin: S3 requests | 120 | - |",
                        "| plugin: retries | 7 | - |",
                        "| plugin: throttled attempts | 5 | - |",
                        "| plugin: uploaded (MB) | 300.0 | - |",
                        "| plugin: downloaded (MB) | 94.4 | - |",
                        "| plugin: peak buffered (MB) | 64.0 | - |",
                        "### Plugin metrics",
                        "| writers blocked by back-pressure (s) | 2.50 |",
                        "| phase | requests | GetObject | PutObject | UploadPart |",
                        "| restore (server) | 12 | 5 | 0 | 0 |",
                        "| whole run (plugin) | 120 | 30 | 10 | 80 |");
    }

    @Test
    void aSingleRunHasNoComparisonSection() throws Exception {
        BenchmarkResults results =
                ResultsSamples.results(List.of("ours"), 1, List.of(ResultsSamples.run("ours", 1, 1.0, 1000, DIGEST)));

        String md = Files.readString(new ReportWriter(output).write(results));

        assertThat(md).doesNotContain("## Comparison").contains("| figure | ours |");
    }
}
