package dev.flinks3.bench.fsbench.report;

import static dev.flinks3.bench.fsbench.workloads.FsWorkload.SMALL_FILES;
import static dev.flinks3.bench.fsbench.workloads.FsWorkload.STREAM_WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.flinks3.bench.common.Spread;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonTest {

    private static final List<String> CONTENDERS = List.of("ours", "native", "presto");

    @Test
    void ratioIsOursMeanOverTheRivalsMean() {
        Comparison comparison = Comparison.of(
                CONTENDERS,
                "ours",
                List.of(
                        Results.ok("ours", 1, STREAM_WRITE, 200, 1.0),
                        Results.ok("ours", 2, STREAM_WRITE, 220, 1.2),
                        Results.ok("native", 1, STREAM_WRITE, 50, 2.0),
                        Results.ok("native", 2, STREAM_WRITE, 50, 2.4)));

        assertThat(comparison.ratio(STREAM_WRITE, Metric.THROUGHPUT, "native").getAsDouble())
                .isCloseTo(4.2, within(1e-9));
        assertThat(comparison
                        .ratio(STREAM_WRITE, Metric.CLIENT_CPU_SECONDS, "native")
                        .getAsDouble())
                .isCloseTo(0.5, within(1e-9));
    }

    @Test
    void aCellFoldsItsRoundsAndFlagsTheirSpread() {
        Comparison comparison = Comparison.of(
                CONTENDERS,
                "ours",
                List.of(Results.ok("ours", 1, STREAM_WRITE, 100, 1.0), Results.ok("ours", 2, STREAM_WRITE, 130, 1.0)));

        Spread throughput = comparison.cell(STREAM_WRITE, "ours").orElseThrow().spread(Metric.THROUGHPUT);

        assertThat(throughput.mean()).isCloseTo(115, within(1e-9));
        assertThat(throughput.flagged()).isTrue();
        assertThat(comparison
                        .cell(STREAM_WRITE, "ours")
                        .orElseThrow()
                        .spread(Metric.CLIENT_CPU_SECONDS)
                        .flagged())
                .isFalse();
    }

    @Test
    void aContenderThatFailedAnyRoundHasAFailedCellAndNoRatio() {
        Comparison comparison = Comparison.of(
                CONTENDERS,
                "ours",
                List.of(
                        Results.ok("ours", 1, STREAM_WRITE, 200, 1.0),
                        Results.ok("native", 1, STREAM_WRITE, 50, 2.0),
                        Results.failed("native", 2, STREAM_WRITE, "wrong byte at position 7")));

        Comparison.Cell cell = comparison.cell(STREAM_WRITE, "native").orElseThrow();

        assertThat(cell.failed()).isTrue();
        assertThat(cell.failures()).containsExactly("round 2: wrong byte at position 7");
        assertThat(comparison.ratio(STREAM_WRITE, Metric.THROUGHPUT, "native")).isEmpty();
    }

    @Test
    void noRatioWithoutTheBaselineOrAgainstZero() {
        Comparison comparison = Comparison.of(
                CONTENDERS,
                "ours",
                List.of(
                        Results.ok("native", 1, STREAM_WRITE, 50, 2.0),
                        Results.ok("ours", 1, SMALL_FILES, 30, 1.0),
                        Results.ok("presto", 1, SMALL_FILES, 0, 1.0)));

        assertThat(comparison.ratio(STREAM_WRITE, Metric.THROUGHPUT, "native")).isEmpty();
        assertThat(comparison.ratio(SMALL_FILES, Metric.THROUGHPUT, "presto")).isEmpty();
        assertThat(comparison.ratio(SMALL_FILES, Metric.THROUGHPUT, "native")).isEmpty();
    }

    @Test
    void rivalsAreTheOtherContendersInReportOrderAndWorkloadsThoseRun() {
        Comparison comparison = Comparison.of(
                CONTENDERS,
                "ours",
                List.of(Results.ok("presto", 1, SMALL_FILES, 10, 1.0), Results.ok("ours", 1, STREAM_WRITE, 10, 1.0)));

        assertThat(comparison.rivals()).containsExactly("native", "presto");
        assertThat(comparison.workloads()).containsExactly(STREAM_WRITE, SMALL_FILES);
        assertThat(comparison.cell(SMALL_FILES, "native")).isEmpty();
    }
}
