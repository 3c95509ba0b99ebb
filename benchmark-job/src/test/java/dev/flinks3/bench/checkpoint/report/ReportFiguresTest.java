package dev.flinks3.bench.checkpoint.report;

import static dev.flinks3.bench.checkpoint.report.ResultsSamples.DIGEST;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.Machine;
import dev.flinks3.bench.checkpoint.results.RunConfiguration;
import dev.flinks3.bench.checkpoint.results.S3Traffic;
import dev.flinks3.bench.common.Json;
import java.awt.Color;
import java.awt.Paint;
import java.awt.image.BufferedImage;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the report shows and leaves out: failed checkpoints, time axis, colours, unmeasured figures, parameters. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReportFiguresTest {

    private static final List<String> PER_CHECKPOINT = List.of(
            Charts.DURATION,
            Charts.DURATION_OVER_TIME,
            Charts.STATE_SIZE,
            Charts.CHECKPOINTED_SIZE_OVER_TIME,
            Charts.THROUGHPUT);

    @TempDir
    Path output;

    @Test
    void aFailedCheckpointIsListedInItsRunsTableAndMarkedInEveryPerCheckpointChart() throws Exception {
        // The recorded run: checkpoints 1-4 completed, 5 failed 24.701 s after the job's start-time.
        BenchmarkResults results =
                ResultsSamples.results(List.of("ours"), 1, List.of(ResultsSamples.run("ours", 1, 1.0, 1000, DIGEST)));

        String md = Files.readString(new ReportWriter(output).write(results));

        assertThat(md)
                .contains(
                        "### Checkpoints",
                        "| id | status | triggered (s since start) | state size (MB) | checkpointed size (MB) | duration (s) "
                                + "| throughput (MB/s) | failure |",
                        "| 5 | **FAILED** | 24.7 | 0.0 | 0.0 | 1.54 | - | Checkpoint Coordinator is suspending. |",
                        "| 4 | completed | 19.6 | 94.4 | 94.4 | 3.51 | 26.9 | - |");
        assertThat(md).as("how the server ran").contains("S3 server: pinned to CPU 1; objects on tmpfs.");
        Map<String, JFreeChart> charts = charts(results);
        for (String name : PER_CHECKPOINT) {
            XYPlot plot = charts.get(name).getXYPlot();
            XYSeriesCollection data = (XYSeriesCollection) plot.getDataset();
            XYSeries failed = data.getSeries("ours failed");
            assertThat(failed.getItemCount()).as(name).isEqualTo(1);
            assertThat(data.getSeries("ours").getItemCount()).as(name).isEqualTo(4);
            int index = data.indexOf(failed);
            assertThat(plot.getRenderer().getSeriesShape(index).getBounds2D())
                    .as(name)
                    .isEqualTo(ContenderColours.failedMarker().getBounds2D());
            assertThat(plot.getRenderer().getSeriesShape(index - 1).getBounds2D())
                    .as(name)
                    .isNotEqualTo(ContenderColours.failedMarker().getBounds2D());
        }
        XYSeries overTime = ((XYSeriesCollection)
                        charts.get(Charts.DURATION_OVER_TIME).getXYPlot().getDataset())
                .getSeries("ours failed");
        assertThat(overTime.getX(0).doubleValue()).isEqualTo(24.701);
        assertThat(overTime.getY(0).doubleValue()).isEqualTo(1.538);
    }

    @Test
    void aRunWithoutRestoreHasNoRestoreChartAndNoRestoreRow() throws Exception {
        // A cluster run read from the REST API before the job's start-time was recorded: no restore, no CPU.
        BenchmarkResults presto = Json.read(resource("presto-eks-results.json"), BenchmarkResults.class);

        String md = Files.readString(new ReportWriter(output).write(presto));

        assertThat(presto.contenders().get(0).run().startTimestamp()).isZero();
        assertThat(output.resolve(ReportWriter.CHARTS).resolve(Charts.RESTORE)).doesNotExist();
        assertThat(output.resolve(ReportWriter.CHARTS).resolve(Charts.DURATION_OVER_TIME))
                .isNotEmptyFile();
        assertThat(md)
                .doesNotContain("restore", "Restore", "| 0.00 |", "contender JVM CPU")
                .contains(
                        "| checkpoints failed | 1 |",
                        // Without the job's start, time counts from the first checkpoint's trigger.
                        "| 2 | **FAILED** | 20.0 | 20.0 | 20.0 | 10.00 | - | Checkpoint expired before completing. |",
                        "| 3 | completed | 40.0 |");
    }

    @Test
    void aFailedRunShowsDashesWhereItMeasuredNothing() throws Exception {
        BenchmarkResults results = ResultsSamples.results(
                List.of("ours", "hadoop"),
                1,
                List.of(
                        ResultsSamples.run("ours", 1, 1.0, 1000, DIGEST),
                        ResultsSamples.failed("hadoop", "job is FAILED: java.io.IOException: boom")));

        String md = Files.readString(new ReportWriter(output).write(results));

        assertThat(md)
                .contains(
                        "| p50 duration (s) | 2.75 | - |",
                        "| avg throughput (MB/s) |",
                        "| restore: submission to all RUNNING (s) | 1.00 | - |",
                        "| restore verified | yes | - |",
                        "| hadoop | FAILED: hadoop failed: job is FAILED: java.io.IOException: boom | - | - | - | - | - "
                                + "| 3.0 |",
                        "ours vs hadoop: no ratio, hadoop did not pass the correctness gate");
        String hadoop = md.substring(md.indexOf("## Run: hadoop"));
        assertThat(hadoop)
                .contains("**Failed:** job is FAILED: java.io.IOException: boom")
                .doesNotContain("### Checkpoint percentiles", "### Checkpoints", "### Restore", "0.00");
    }

    @Test
    void aContenderHasTheSameColourInEveryChart() throws Exception {
        BenchmarkResults results = ResultsSamples.results(
                List.of("ours", "presto"),
                2,
                List.of(
                        ResultsSamples.run("ours", 1, 1.0, 1000, DIGEST),
                                ResultsSamples.run("presto", 1, 2.0, 2500, DIGEST),
                        ResultsSamples.run("presto", 2, 2.0, 2600, DIGEST),
                                ResultsSamples.run("ours", 2, 1.0, 1100, DIGEST)));
        Map<String, JFreeChart> charts = charts(results);
        Color presto = new ContenderColours(List.of()).of("presto");

        for (String name : PER_CHECKPOINT) {
            XYPlot plot = charts.get(name).getXYPlot();
            XYSeriesCollection data = (XYSeriesCollection) plot.getDataset();
            assertThat(plot.getRenderer().getSeriesPaint(data.indexOf("presto #1")))
                    .as(name)
                    .isEqualTo(presto);
            assertThat(plot.getRenderer().getSeriesPaint(data.indexOf("presto #1 failed")))
                    .as(name)
                    .isEqualTo(presto);
            // The second round: a lighter shade of the same colour, another marker.
            Color round2 = (Color) plot.getRenderer().getSeriesPaint(data.indexOf("presto #2"));
            assertThat(round2).as(name).isNotEqualTo(presto);
            assertThat(round2.getGreen()).as(name).isGreaterThan(presto.getGreen());
            assertThat(plot.getRenderer().getSeriesShape(data.indexOf("presto #2")))
                    .as(name)
                    .isNotEqualTo(plot.getRenderer().getSeriesShape(data.indexOf("presto #1")));
        }
        CategoryPlot percentiles = charts.get(Charts.PERCENTILES).getCategoryPlot();
        assertThat(percentiles
                        .getRenderer()
                        .getSeriesPaint(percentiles.getDataset().getRowIndex("presto")))
                .isEqualTo(presto);
        CategoryPlot restore = charts.get(Charts.RESTORE).getCategoryPlot();
        Paint prestoRound1 =
                restore.getRenderer().getItemPaint(0, restore.getDataset().getColumnIndex("presto #1"));
        assertThat(prestoRound1).isEqualTo(presto);
        assertThat(restore.getRenderer().getItemPaint(0, restore.getDataset().getColumnIndex("ours #1")))
                .isNotEqualTo(presto);
    }

    @Test
    void theParameterTableShowsTheKeysUsedWhenTheStateCapLowersNumKeys() throws Exception {
        // 8,192 keys of 64 KiB would be 512 MiB; the 0.25 GiB cap leaves 4,096.
        JobParameters job =
                JobParameters.fromMap(Map.of("numKeys", "8192", "valueSizeKb", "64", "targetStateGb", "0.25"));
        BenchmarkResults sample =
                ResultsSamples.results(List.of("ours"), 1, List.of(ResultsSamples.run("ours", 1, 1.0, 1000, DIGEST)));
        BenchmarkResults results = new BenchmarkResults(
                sample.date(),
                sample.machine(),
                RunConfiguration.of(
                        job,
                        2,
                        "wan",
                        "http://127.0.0.1:9000",
                        "flink-benchmark",
                        1,
                        List.of("ours"),
                        "java -jar x.jar local"),
                sample.contenders());

        String md = Files.readString(new ReportWriter(output).write(results));

        assertThat(job.keyCount()).isEqualTo(4096);
        assertThat(md)
                .contains(
                        "| numKeys | 4096 used (8192 asked, capped by targetStateGb) |",
                        "| valueSizeKb | 64 KiB |",
                        "| targetStateGb | 0.25 GiB (268.4 MB) |",
                        "Job: 4096 keys",
                        MarkdownReport.UNITS);
    }

    @Test
    void theReportSaysTheJobsShapeAndTheObjectsEachCheckpointWrote() throws Exception {
        // 2 GiB of 64 KiB values over 4 subtasks, incremental, 8 transfer threads each; the recorded run has
        // 4 completed and 1 failed checkpoint, and the server counted 7 PutObjects and 3 multipart uploads.
        JobParameters job = JobParameters.fromMap(Map.of(
                "numKeys", "32768",
                "valueSizeKb", "64",
                "targetStateGb", "2",
                "recordsPerSecond", "400",
                "duration", "90s",
                "parallelism", "4",
                "incremental", "true",
                "rocksdb-transfer-threads", "8"));
        ContenderResult sample = ResultsSamples.run("ours", 1, 1.0, 1000, DIGEST);
        ContenderResult run = new ContenderResult(
                sample.plugin(),
                sample.round(),
                sample.run(),
                sample.error(),
                sample.clientCpuSeconds(),
                sample.peakHeapBytes(),
                Map.of(
                        "checkpointing",
                        new S3Traffic(40, Map.of("PutObject", 7L, "CreateMultipartUpload", 3L, "UploadPart", 30L), 0)),
                sample.serverCpuSeconds(),
                sample.pluginMetrics());
        BenchmarkResults results = new BenchmarkResults(
                "2026-12-06T10:00:00Z",
                new Machine("Linux 6", "amd64", 2, 24_000_000_000L, "17"),
                RunConfiguration.of(
                        job, 0, "wan", "http://127.0.0.1:9000", "flink-benchmark", 1, List.of("ours"), "compare"),
                List.of(run));

        String md = Files.readString(new ReportWriter(output).write(results));

        assertThat(md)
                .contains(
                        "Shape: 4 subtasks in one TaskManager (4 slots), 536.9 MB of state per subtask at the end, "
                                + "RocksDB with incremental checkpoints, 8 transfer threads per subtask (32 files in "
                                + "flight at most).",
                        "| objects created per checkpoint (server's log, directory markers included) | 2.0 |");
    }

    @Test
    void aForStJobsShapeNamesNoTransferThreads() {
        JobParameters job = JobParameters.fromMap(
                Map.of("numKeys", "1024", "valueSizeKb", "64", "parallelism", "1", "state-backend", "forst"));

        String shape = JobShape.describe(
                RunConfiguration.of(job, 3, "lan", "http://127.0.0.1:9000", "b", 1, List.of("ours"), "compare"));

        assertThat(shape)
                .isEqualTo("Shape: 1 subtask in one TaskManager (3 slots), 67.1 MB of state per subtask at the end, "
                        + "ForSt with incremental checkpoints.");
    }

    @Test
    void everyChartIsAReadablePng() throws Exception {
        BenchmarkResults results = ResultsSamples.results(
                List.of("ours", "native", "presto"),
                1,
                List.of(
                        ResultsSamples.run("ours", 1, 1.0, 1000, DIGEST),
                        ResultsSamples.run("native", 1, 1.3, 2000, DIGEST),
                        ResultsSamples.run("presto", 1, 2.0, 2500, DIGEST)));

        String md = Files.readString(new ReportWriter(output).write(results));

        List<String> all = List.of(
                Charts.DURATION,
                Charts.DURATION_OVER_TIME,
                Charts.STATE_SIZE,
                Charts.CHECKPOINTED_SIZE_OVER_TIME,
                Charts.THROUGHPUT,
                Charts.PERCENTILES,
                Charts.RESTORE);
        for (String chart : all) {
            Path png = output.resolve(ReportWriter.CHARTS).resolve(chart);
            assertThat(png).as(chart).isNotEmptyFile();
            BufferedImage image = ImageIO.read(png.toFile());
            assertThat(image.getWidth()).as(chart).isEqualTo(900);
            assertThat(md).contains("](charts/" + chart + ")");
        }
    }

    private static Map<String, JFreeChart> charts(BenchmarkResults results) {
        List<RunFigures> runs = RunFigures.of(results.contenders());
        List<String> contenders = results.configuration().contenders();
        return new Charts(Path.of("unused"), new ContenderColours(contenders))
                .build(runs, new Comparison(runs, contenders));
    }

    static Path resource(String name) throws URISyntaxException {
        return Path.of(ReportFiguresTest.class.getResource("/results/" + name).toURI());
    }
}
