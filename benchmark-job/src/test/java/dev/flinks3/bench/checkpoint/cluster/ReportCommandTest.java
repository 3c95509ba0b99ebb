package dev.flinks3.bench.checkpoint.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.report.ReportWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReportCommandTest {

    @TempDir
    Path output;

    @Test
    void twoResultsFilesMakeOneReportWithBothContendersSideBySide() throws Exception {
        // Two cluster runs, each read from its JobManager into its own results.json.
        int exit = new CommandLine(new ReportCommand())
                .execute(
                        "--results",
                        resource("native-eks-results.json"),
                        "--results",
                        resource("presto-eks-results.json"),
                        "--output",
                        output.toString());

        assertThat(exit).isZero();
        String md = Files.readString(output.resolve(ReportWriter.REPORT));
        assertThat(md)
                .contains(
                        "Compared from 2 results files",
                        "| native-eks-results.json | 2026-11-28T08:00:00Z |",
                        "| presto-eks-results.json | 2026-11-28T09:12:00Z |",
                        "| parameter | native-eks-results.json | presto-eks-results.json |",
                        "| figure | native-s3-benchmark | presto-s3-benchmark |",
                        "| checkpoints completed | 3 | 2 |",
                        // Both ran 75 s: 3 and 2 completed checkpoints in the same time.
                        "| checkpointing phase (s) | 75.0 | 75.0 |",
                        "| completed checkpoints per minute | 2.4 | 1.6 |",
                        "## Comparison",
                        "| native-s3-benchmark | passed |",
                        "| presto-s3-benchmark | passed |",
                        // 530 MB in 7 s against 350 MB in 9 s; neither restored nor measured its CPU.
                        "native-s3-benchmark vs presto-s3-benchmark: 1.95x checkpoint throughput (75.7 vs 38.9 MB/s)",
                        "## Run: native-s3-benchmark",
                        "## Run: presto-s3-benchmark")
                .doesNotContain("restore speed", "x contender JVM CPU", "| contender JVM CPU (s) |", "| plugin |");
        assertThat(output.resolve("results.json")).doesNotExist();
        assertThat(output.resolve(ReportWriter.CHARTS).resolve("duration-percentiles.png"))
                .isNotEmptyFile();
    }

    private static String resource(String name) throws URISyntaxException {
        return Path.of(ReportCommandTest.class.getResource("/results/" + name).toURI())
                .toString();
    }
}
