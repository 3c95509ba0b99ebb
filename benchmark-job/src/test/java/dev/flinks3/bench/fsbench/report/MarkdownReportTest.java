package dev.flinks3.bench.fsbench.report;

import static dev.flinks3.bench.fsbench.workloads.FsWorkload.SMALL_FILES;
import static dev.flinks3.bench.fsbench.workloads.FsWorkload.STREAM_WRITE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.fsbench.RunDescription;
import dev.flinks3.bench.fsbench.WorkloadResult;
import dev.flinks3.bench.fsbench.workloads.WorkloadSizes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class MarkdownReportTest {

    private static final List<String> CONTENDERS = List.of("ours", "native");

    private static RunDescription run() {
        Map<String, String> jars = new LinkedHashMap<>();
        jars.put("ours", "flinks3-s3-fs-0.1.0-SNAPSHOT.jar");
        jars.put("native", "flink-s3-fs-native-2.3.0.jar");
        return new RunDescription(
                "java FsBenchmarkMain --profile wan",
                "wan",
                2,
                WorkloadSizes.defaults(),
                jars,
                "2026-01-01T00:00:00Z",
                "S3 server pinned to CPU 1, contenders to CPU 0 (taskset)",
                "tmpfs, /dev/shm/flinks3-s3-server-1 (room for the 7.0 GiB the run stores at once)",
                "the S3 server's warm-up ran 2 pass(es) of the warm-up round, its JIT compilers taking 3% of its 4.0"
                        + " CPU-s in the last");
    }

    @Test
    void throughputTableHasMeansWithMinMaxAndTheRatioToEachRival() {
        List<WorkloadResult> results = List.of(
                Results.ok("ours", 1, STREAM_WRITE, 200, 1.0),
                Results.ok("ours", 2, STREAM_WRITE, 220, 1.0),
                Results.ok("native", 1, STREAM_WRITE, 48, 2.0),
                Results.ok("native", 2, STREAM_WRITE, 52, 2.0));

        String markdown = MarkdownReport.render(run(), Comparison.of(CONTENDERS, "ours", results), results);

        assertThat(markdown).contains("| workload | unit | ours | native | ours / native |");
        assertThat(markdown)
                .contains("Processes: the S3 server in its own JVM, each contender in its own JVM; "
                        + "S3 server pinned to CPU 1, contenders to CPU 0 (taskset); the server's objects on tmpfs, "
                        + "/dev/shm/flinks3-s3-server-1 (room for the 7.0 GiB the run stores at once); the S3"
                        + " server's warm-up ran 2 pass(es) of the warm-up round, its JIT compilers taking 3% of its 4.0 CPU-s"
                        + " in the last.");
        assertThat(markdown).contains("| one stream write | MB/s | 210 (200-220) | 50.0 (48.0-52.0) | 4.20x |");
        assertThat(markdown).contains("| one stream write | 1.00 (1.00-1.00) | 2.00 (2.00-2.00) | 0.50x |");
        assertThat(markdown).contains("| one stream write | 10 (10-10) | 10 (10-10) | 1.00x |");
        assertThat(markdown).contains("Command: `java FsBenchmarkMain --profile wan`");
        assertThat(markdown).contains("native = `flink-s3-fs-native-2.3.0.jar`");
    }

    @Test
    void unstableFiguresAreMarkedAndFailuresListed() {
        List<WorkloadResult> results = List.of(
                Results.ok("ours", 1, SMALL_FILES, 30, 1.0),
                Results.ok("ours", 2, SMALL_FILES, 60, 1.0),
                Results.failed("native", 1, SMALL_FILES, "wrong byte at position 3"));

        String markdown = MarkdownReport.render(run(), Comparison.of(CONTENDERS, "ours", results), results);

        assertThat(markdown)
                .contains("| small files | ops/s | 45.0 (30.0-60.0)" + MarkdownReport.UNSTABLE + " | FAILED | - |");
        assertThat(markdown).contains("## Failures");
        assertThat(markdown).contains("- native, small files, round 1: wrong byte at position 3");
    }

    @Test
    void headerSaysHowLongTimedPartsWaitedForTheServerAndWhichStartedWithItBusy() {
        List<WorkloadResult> results = List.of(
                Results.ok("ours", 1, SMALL_FILES, 30, 1.0, 3.4, true),
                Results.ok("native", 1, SMALL_FILES, 20, 1.0, 20.1, false));

        String markdown = MarkdownReport.render(run(), Comparison.of(CONTENDERS, "ours", results), results);

        assertThat(markdown)
                .contains("(room for the 7.0 GiB the run stores at once); the S3 server's warm-up ran 2 pass(es)")
                .contains("Each timed part started once the S3 server's process had used at most 5% of a core over"
                        + " 200 ms (the longest wait 20.1 s); with the server still busy after 20 s: small files of"
                        + " native in round 1.");
    }

    @Test
    void headerSaysNothingOfWaitsWhenNoPartWaited() {
        List<WorkloadResult> results = List.of(Results.ok("ours", 1, SMALL_FILES, 30, 1.0, 0, true));

        String markdown = MarkdownReport.render(run(), Comparison.of(CONTENDERS, "ours", results), results);

        assertThat(markdown).doesNotContain("server's process had used");
    }

    @Test
    void requestsByOperationComeFromRoundOne() {
        List<WorkloadResult> results = List.of(Results.ok("ours", 1, SMALL_FILES, 30, 1.0));

        String markdown = MarkdownReport.render(run(), Comparison.of(CONTENDERS, "ours", results), results);

        assertThat(markdown).contains("| small files | PutObject 10 (0.25 s) | - |");
    }

    @Test
    void cellsAndRatiosHaveFixedForms() {
        assertThat(MarkdownReport.cell(Optional.empty(), Metric.THROUGHPUT)).isEqualTo("-");
        assertThat(MarkdownReport.ratio(OptionalDouble.empty())).isEqualTo("-");
        assertThat(MarkdownReport.ratio(OptionalDouble.of(1.3456))).isEqualTo("1.35x");
        assertThat(MarkdownReport.ratio(OptionalDouble.of(3.0 / 2003))).isEqualTo("0.0015x");
        assertThat(MarkdownReport.number(48.456, Metric.THROUGHPUT)).isEqualTo("48.5");
        assertThat(MarkdownReport.number(3.14159, Metric.CLIENT_CPU_SECONDS)).isEqualTo("3.14");
        assertThat(MarkdownReport.number(187.4, Metric.THROUGHPUT)).isEqualTo("187");
        assertThat(MarkdownReport.number(0, Metric.THROUGHPUT)).isEqualTo("0");
        assertThat(MarkdownReport.number(3.6, Metric.S3_REQUESTS)).isEqualTo("4");
    }
}
