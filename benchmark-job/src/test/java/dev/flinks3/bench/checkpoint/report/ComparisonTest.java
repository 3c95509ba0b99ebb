package dev.flinks3.bench.checkpoint.report;

import static dev.flinks3.bench.checkpoint.report.ResultsSamples.DIGEST;
import static dev.flinks3.bench.checkpoint.report.ResultsSamples.failed;
import static dev.flinks3.bench.checkpoint.report.ResultsSamples.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.RunResult;
import dev.flinks3.bench.common.Spread;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ComparisonTest {

    @Test
    void givesTheBaselinesRatiosToEachRivalAveragedOverRounds() {
        List<RunFigures> runs = RunFigures.of(List.of(
                run("ours", 1, 1.0, 1000, DIGEST), run("presto", 1, 2.0, 3000, DIGEST),
                run("presto", 2, 2.0, 3000, DIGEST), run("ours", 2, 1.0, 1000, DIGEST)));

        Comparison comparison = new Comparison(runs, List.of("ours", "presto"));

        assertThat(comparison.allPassed()).isTrue();
        assertThat(comparison.ratioLines())
                .singleElement()
                .asString()
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
        List<RunFigures> runs = RunFigures.of(List.of(
                run("ours", 1, 1.0, 1000, DIGEST),
                failed("hadoop", "restore failed: job is FAILED: java.io.IOException: boom")));

        Comparison comparison = new Comparison(runs, List.of("ours", "hadoop"));

        assertThat(comparison.allPassed()).isFalse();
        assertThat(comparison.contenders().get(1).gateNote()).contains("hadoop failed: restore failed");
        assertThat(comparison.ratioLines())
                .containsExactly("ours vs hadoop: no ratio, hadoop did not pass the correctness gate");
    }

    @Test
    void differentFinalStateFailsTheGate() {
        List<RunFigures> runs = RunFigures.of(
                List.of(run("ours", 1, 1.0, 1000, DIGEST), run("native", 1, 1.0, 1000, "0000000000000001")));

        Comparison comparison = new Comparison(runs, List.of("ours", "native"));

        assertThat(comparison.contenders().get(1).passed()).isFalse();
        assertThat(comparison.contenders().get(1).gateNote()).contains("state digest 0000000000000001");
    }

    @Test
    void roundsThatDifferByMoreThanAQuarterAreFlagged() {
        Spread spread = Comparison.spread(
                RunFigures.of(List.of(run("ours", 1, 1.0, 1000, DIGEST), run("ours", 2, 1.0, 1300, DIGEST))),
                r -> (double) r.restoreMs());

        assertThat(spread.mean()).isCloseTo(1150, Offset.offset(1e-9));
        assertThat(spread.flagged()).isTrue();
        assertThat(Comparison.format(spread, "%.0f")).isEqualTo("1150 (1000–1300) ⚠");
    }

    @Test
    void aFigureNoRoundMeasuredIsADashAndHasNoRatio() {
        // Runs read from a cluster: no restore, no CPU measured.
        List<RunFigures> runs = RunFigures.of(List.of(
                withoutRestore(run("ours", 1, 1.0, 1000, DIGEST)),
                withoutRestore(run("presto", 1, 2.0, 3000, DIGEST))));

        Comparison comparison = new Comparison(runs, List.of("ours", "presto"));

        assertThat(comparison.allPassed()).isTrue();
        Comparison.ContenderFigures ours = comparison.contenders().get(0);
        assertThat(ours.restoreMs().count()).isZero();
        assertThat(Comparison.format(ours.restoreMs(), "%.0f")).isEqualTo("-");
        assertThat(comparison.ratioLines())
                .singleElement()
                .asString()
                .startsWith("ours vs presto: 2.00x checkpoint throughput")
                .doesNotContain("restore", "CPU");
    }

    private static ContenderResult withoutRestore(ContenderResult result) {
        RunResult r = result.run();
        return new ContenderResult(
                result.plugin(),
                result.round(),
                new RunResult(
                        r.jobId(),
                        r.startTimestamp(),
                        r.totalRecords(),
                        r.recordsProcessed(),
                        r.keysCreated(),
                        r.stateDigest(),
                        r.checkpointingSeconds(),
                        r.processingSeconds(),
                        r.checkpoints(),
                        null),
                "",
                0,
                0,
                Map.of(),
                0);
    }
}
