package dev.flinks3.bench.checkpoint.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.report.ReportWriter;
import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.PluginMetrics;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import dev.flinks3.bench.checkpoint.stats.CheckpointSummary;
import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The README's first command, as a user runs it: {@code java -jar target/flinks3-benchmark-job.jar local}
 * with small state on the embedded server ({@code lan}), with this repository's plugin jar loaded
 * through Flink's plugin mechanism. Checks that checkpoints completed, their objects are in the bucket,
 * the restore (at another parallelism) verified the state, and the report and charts agree with
 * {@code results.json}.
 */
class LocalModeSmokeIT {

    private static final Path OUTPUT = LocalModeProcess.TARGET.resolve("smoke-local");
    private static final String BUCKET = "smoke";

    private static int exitCode;
    private static String console;
    private static BenchmarkResults results;

    @BeforeAll
    static void runLocalMode() throws Exception {
        LocalModeProcess run = LocalModeProcess.run(
                OUTPUT,
                List.of(
                        // the full server keeps objects as files, which this test looks at
                        "--server-mode",
                        "full",
                        "--s3-profile",
                        "lan",
                        "--bucket",
                        BUCKET,
                        "--numKeys",
                        "400",
                        "--valueSizeKb",
                        "16",
                        "--recordsPerSecond",
                        "100",
                        "--duration",
                        "8s",
                        "--checkpointInterval",
                        "2s",
                        "--minPause",
                        "500ms",
                        "--parallelism",
                        "2",
                        "--restoreParallelism",
                        "1",
                        "--managed-memory",
                        "128m",
                        "--jvm-option",
                        "-Xmx768m"));
        exitCode = run.exitCode();
        console = run.console();
        results = run.results();
    }

    @Test
    void theRunSucceededWithOurPlugin() {
        assertThat(exitCode).as(console).isZero();
        ContenderResult run = onlyRun();
        assertThat(run.error()).isEmpty();
        assertThat(run.plugin().fileSystemClass()).startsWith("dev.flinks3.fs.");
        assertThat(console)
                .contains("[ours] checkpoint ", " completed: state ", "MB/s", "[ours] progress ", "report: ");
    }

    @Test
    void checkpointsCompletedAndTheirObjectsAreInTheBucket() throws IOException {
        List<CheckpointStats> completed = onlyRun().run().checkpoints().stream()
                .filter(CheckpointStats::completed)
                .toList();
        assertThat(completed).isNotEmpty();
        URI restored = URI.create(onlyRun().run().restore().checkpointPath());
        assertThat(restored.getHost()).isEqualTo(BUCKET);
        // The restore claims the checkpoint (as an autoscaler's does), so the restored job's first checkpoint
        // subsumes and deletes it: what the bucket must hold is the metadata of the latest checkpoint of
        // either job, next to the job folders of both.
        Path checkpointFolder = OUTPUT.resolve("work/s3")
                .resolve(BUCKET)
                .resolve(restored.getPath().substring(1));
        Path contenderFolder = checkpointFolder.getParent().getParent();
        assertThat(checkpointFolder.getParent())
                .as("the restored job's checkpoint folder")
                .isDirectory();
        assertThat(metadataObjects(contenderFolder))
                .as("checkpoint metadata objects in the bucket")
                .isNotEmpty()
                .allSatisfy(metadata -> assertThat(metadata).isRegularFile());
    }

    /** The {@code chk-N/_metadata} files below the contender's folder of the server's storage. */
    private static List<Path> metadataObjects(Path contenderFolder) throws IOException {
        try (var files = Files.walk(contenderFolder)) {
            return files.filter(p -> p.getFileName().toString().equals("_metadata")
                            && p.getParent().getFileName().toString().startsWith("chk-"))
                    .toList();
        }
    }

    @Test
    void theRestoreAtAnotherParallelismVerifiedEveryKey() {
        var run = onlyRun().run();
        assertThat(run.recordsProcessed()).isEqualTo(800);
        assertThat(run.restore().parallelism()).isEqualTo(1);
        assertThat(run.restore().verified()).isTrue();
        assertThat(run.restore().verifiedKeys()).isEqualTo(400);
        assertThat(run.restore().restoredDigest()).isEqualTo(run.stateDigest());
        assertThat(run.restore().jobManagerRestoreMs()).isPositive();
        assertThat(onlyRun().s3Traffic().get("restore").bytesRead()).isPositive();
    }

    @Test
    void theReportAndChartsAgreeWithTheResults() throws IOException {
        String report = Files.readString(OUTPUT.resolve(ReportWriter.REPORT));
        CheckpointSummary summary = CheckpointSummary.of(onlyRun().run().checkpoints());
        assertThat(report)
                .contains(
                        "| checkpoints completed | " + summary.completed() + " |",
                        "| checkpoints failed | " + summary.failed() + " |",
                        String.format(
                                Locale.ROOT, "| avg throughput (MB/s) | %.1f |", summary.avgThroughputMbPerSecond()),
                        String.format(
                                Locale.ROOT,
                                "| p90 duration (s) | %.2f |",
                                summary.durationMs().p90() / 1000),
                        String.format(Locale.ROOT, "| max state (MB) | %.1f |", summary.maxStateBytes() / 1e6),
                        String.format(
                                Locale.ROOT,
                                "| restore: submission to all RUNNING (s) | %.2f |",
                                onlyRun().run().restore().jobManagerRestoreMs() / 1000.0),
                        "| restore verified | yes |");
        try (DirectoryStream<Path> charts = Files.newDirectoryStream(OUTPUT.resolve(ReportWriter.CHARTS), "*.png")) {
            List<Path> pngs = new ArrayList<>();
            charts.forEach(pngs::add);
            assertThat(pngs).hasSize(7);
            for (Path png : pngs) {
                assertThat(ImageIO.read(png.toFile())).as(png.toString()).isNotNull();
            }
        }
    }

    @Test
    void thePluginsOwnMetricsReadFromItsMBeansAreInTheResultsAndTheReport() throws IOException {
        PluginMetrics plugin = onlyRun().pluginMetrics();
        assertThat(plugin)
                .as("read from the dev.flinks3 MBeans in the contender JVM")
                .isNotNull();
        long serverRequests = onlyRun().s3Traffic().values().stream()
                .mapToLong(t -> t.requests())
                .sum();
        // The plugin counts the whole run, the server only the two phases.
        assertThat(plugin.requests()).isGreaterThanOrEqualTo(serverRequests).isPositive();
        assertThat(plugin.requestsByOperation()).containsKeys("GetObject");
        assertThat(plugin.bytesUploaded()).isPositive();
        assertThat(plugin.bytesDownloaded())
                .isGreaterThanOrEqualTo(onlyRun().s3Traffic().get("restore").bytesRead());
        assertThat(plugin.peakBufferedBytes()).isPositive();
        String report = Files.readString(OUTPUT.resolve(ReportWriter.REPORT));
        assertThat(report)
                .contains(
                        "| plugin: S3 requests | " + plugin.requests() + " |",
                        "| plugin: throttled attempts | " + plugin.throttledAttempts() + " |",
                        "### Plugin metrics",
                        "| whole run (plugin) | " + plugin.requests() + " |");
    }

    private static ContenderResult onlyRun() {
        assertThat(results.contenders()).hasSize(1);
        return results.contenders().get(0);
    }
}
