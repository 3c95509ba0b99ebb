package dev.flinks3.bench.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.report.ReportWriter;
import dev.flinks3.bench.results.BenchmarkResults;
import dev.flinks3.bench.results.ContenderResult;
import dev.flinks3.bench.results.ResultsFile;
import dev.flinks3.bench.stats.CheckpointStats;
import dev.flinks3.bench.stats.CheckpointSummary;
import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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

    private static final Path TARGET = Path.of("target");
    private static final Path OUTPUT = TARGET.resolve("smoke-local");
    private static final String BUCKET = "smoke";

    private static int exitCode;
    private static String console;
    private static BenchmarkResults results;

    @BeforeAll
    static void runLocalMode() throws Exception {
        deleteRecursively(OUTPUT);
        Path pluginJar = ourPluginJar();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", TARGET.resolve("flinks3-benchmark-job.jar").toString(), "local",
                "--plugin", "ours=" + pluginJar, "--contender", "ours",
                "--s3-profile", "lan", "--bucket", BUCKET,
                "--numKeys", "400", "--valueSizeKb", "16", "--recordsPerSecond", "100", "--duration", "8s",
                "--checkpointInterval", "2s", "--minPause", "500ms", "--parallelism", "2", "--restoreParallelism", "1",
                "--managed-memory", "128m", "--jvm-option", "-Xmx768m",
                "--output", OUTPUT.toString(), "--keep-work"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        console = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(4, TimeUnit.MINUTES)).isTrue();
        exitCode = process.exitValue();
        results = ResultsFile.read(OUTPUT.resolve("results.json"), BenchmarkResults.class);
    }

    @Test
    void theRunSucceededWithOurPlugin() {
        assertThat(exitCode).as(console).isZero();
        ContenderResult run = onlyRun();
        assertThat(run.error()).isEmpty();
        assertThat(run.plugin().fileSystemClass()).startsWith("dev.flinks3.fs.");
        assertThat(console).contains("[ours] checkpoint ", " completed: state ", "MB/s", "[ours] progress ",
                "report: ");
    }

    @Test
    void checkpointsCompletedAndTheirObjectsAreInTheBucket() {
        List<CheckpointStats> completed = onlyRun().run().checkpoints().stream().filter(CheckpointStats::completed)
                .toList();
        assertThat(completed).isNotEmpty();
        URI restored = URI.create(onlyRun().run().restore().checkpointPath());
        assertThat(restored.getHost()).isEqualTo(BUCKET);
        Path checkpointFolder = OUTPUT.resolve("work/s3").resolve(BUCKET).resolve(restored.getPath().substring(1));
        assertThat(checkpointFolder.resolve("_metadata")).as("the checkpoint's metadata object").isRegularFile();
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
        assertThat(report).contains(
                "| checkpoints completed | " + summary.completed() + " |",
                "| checkpoints failed | " + summary.failed() + " |",
                String.format(Locale.ROOT, "| avg throughput (MB/s) | %.1f |", summary.avgThroughputMbPerSecond()),
                String.format(Locale.ROOT, "| p90 duration (s) | %.2f |", summary.durationMs().p90() / 1000),
                String.format(Locale.ROOT, "| max state (MB) | %.1f |", summary.maxStateBytes() / 1e6),
                String.format(Locale.ROOT, "| restore: submission to all RUNNING (s) | %.2f |",
                        onlyRun().run().restore().jobManagerRestoreMs() / 1000.0),
                "| restore verified | yes |");
        try (DirectoryStream<Path> charts = Files.newDirectoryStream(OUTPUT.resolve(ReportWriter.CHARTS), "*.png")) {
            List<Path> pngs = new ArrayList<>();
            charts.forEach(pngs::add);
            assertThat(pngs).hasSize(4);
            for (Path png : pngs) {
                assertThat(ImageIO.read(png.toFile())).as(png.toString()).isNotNull();
            }
        }
    }

    private static ContenderResult onlyRun() {
        assertThat(results.contenders()).hasSize(1);
        return results.contenders().get(0);
    }

    /** The shaded plugin jar the flink-s3-fs-native module builds (classifier {@code plugin}). */
    private static Path ourPluginJar() throws IOException {
        Path target = Path.of("..", "flink-s3-fs-native", "target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(f -> f.getFileName().toString().endsWith("-plugin.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no *-plugin.jar in " + target.toAbsolutePath()
                            + ": build flink-s3-fs-native first"))
                    .toAbsolutePath();
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
