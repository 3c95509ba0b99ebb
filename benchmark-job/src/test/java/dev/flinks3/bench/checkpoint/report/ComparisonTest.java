package dev.flinks3.bench.checkpoint.report;

import static dev.flinks3.bench.checkpoint.report.ResultsSamples.DIGEST;
import static dev.flinks3.bench.checkpoint.report.ResultsSamples.failed;
import static dev.flinks3.bench.checkpoint.report.ResultsSamples.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.common.Spread;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class ComparisonTest {

    @Test
    void givesTheBaselinesRatiosToEachRivalAveragedOverRounds() {
        List<RunFigures> runs = RunFigures.of(List.of(
                run("ours", 1, 1.0, 1000, DIGEST), run("presto", 1, 2.0, 3000, DIGEST),
                run("presto", 2, 2.0, 3000, DIGEST), run("ours", 2, 1.0, 1000, DIGEST)));

        Comparison comparison = new Comparison(runs, List.of("ours", "presto"));

        assertThat(comparison.allPassed()).isTrue();
        assertThat(comparison.ratioLines()).singleElement().asString()
                .startsWith("ours vs presto: 2.00x checkpoint throughput")
                .contains("3.00x restore speed (1.00 vs 3.00 s)")
                .contains("0.50x contender JVM CPU");
        Comparison.ContenderFigures presto = comparison.contenders().get(1);
        assertThat(presto.runs()).hasSize(2);
        assertThat(presto.restoreMs().mean()).isEqualTo(3000);
        assertThat(presto.throughputMbPerSecond().flagged()).isFalse();
    }

    @Test
    void aFailedContenderIsReportedWithItsErrorAndGetsNoRatio() {
        List<RunFigures> runs = RunFigures.of(List.of(run("ours", 1, 1.0, 1000, DIGEST),
                failed("hadoop", "restore failed: job is FAILED: java.io.IOException: boom")));

        Comparison comparison = new Comparison(runs, List.of("ours", "hadoop"));

        assertThat(comparison.allPassed()).isFalse();
        assertThat(comparison.contenders().get(1).gateNote()).contains("hadoop failed: restore failed");
        assertThat(comparison.ratioLines()).containsExactly(
                "ours vs hadoop: no ratio, hadoop did not pass the correctness gate");
    }

    @Test
    void differentFinalStateFailsTheGate() {
        List<RunFigures> runs = RunFigures.of(List.of(run("ours", 1, 1.0, 1000, DIGEST),
                run("native", 1, 1.0, 1000, "0000000000000001")));

        Comparison comparison = new Comparison(runs, List.of("ours", "native"));

        assertThat(comparison.contenders().get(1).passed()).isFalse();
        assertThat(comparison.contenders().get(1).gateNote()).contains("state digest 0000000000000001");
    }

    @Test
    void roundsThatDifferByMoreThanAQuarterAreFlagged() {
        Spread spread = Comparison.spread(RunFigures.of(List.of(run("ours", 1, 1.0, 1000, DIGEST),
                run("ours", 2, 1.0, 1300, DIGEST))), r -> (double) r.restoreMs());

        assertThat(spread.mean()).isCloseTo(1150, Offset.offset(1e-9));
        assertThat(spread.flagged()).isTrue();
        assertThat(Comparison.format(spread, "%.0f")).isEqualTo("1150 (1000–1300) ⚠");
    }
}
