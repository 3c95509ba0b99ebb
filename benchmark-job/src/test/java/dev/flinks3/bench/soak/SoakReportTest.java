package dev.flinks3.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.S3Faults;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The soak report's checkpoint-tail check, on a made-up run: 60 checkpoints, one slow in the last third. */
@Timeout(10)
class SoakReportTest {

    private static final long T0 = 1_800_000_000_000L;
    private static final long SLOW_TRIGGER = T0 + 55 * 2_000;
    private static final SoakReport.Bounds BOUNDS = new SoakReport.Bounds(0.15, 2.5, 0, 4);

    @Test
    void aSlowCheckpointInTheLastThirdMakesTheTailRise() {
        SoakReport report = new SoakReport(run(), results(List.of()), BOUNDS);

        assertThat(report.failures()).anyMatch(f -> f.startsWith("checkpoint duration p99 rose from 300 ms"));
    }

    @Test
    void aSlowCheckpointThatWaitedOnAnAnswerHeldBackOnPurposeIsLeftOutOfTheTail() {
        SoakReport report = new SoakReport(run(), results(List.of(SLOW_TRIGGER + 100)), BOUNDS);

        assertThat(report.failures()).noneMatch(f -> f.contains("p99"));
    }

    @Test
    void anAnswerStillHeldBackWhenTheCheckpointWasTriggeredExplainsItToo() {
        // Held back 1.2 s before the trigger, for 9 s: a task waiting on it holds the barrier back.
        SoakReport report = new SoakReport(run(), results(List.of(SLOW_TRIGGER - 1_200)), BOUNDS);

        assertThat(report.failures()).noneMatch(f -> f.contains("p99"));
    }

    @Test
    void anAnswerHeldBackWhileNoCheckpointRanExplainsNothing() {
        // Served 10 s before the trigger, or held back after the slow checkpoint ended: that checkpoint still counts.
        for (long heldAt : new long[] {SLOW_TRIGGER - 19_000, SLOW_TRIGGER + 8_300}) {
            SoakReport report = new SoakReport(run(), results(List.of(heldAt)), BOUNDS);

            assertThat(report.failures()).anyMatch(f -> f.startsWith("checkpoint duration p99 rose"));
        }
    }

    @Test
    void uploadsLeftAtEachTaskManagerStopAndFlatBetweenPass() {
        // Stops at 29, 59 and 89 s, each leaving 4 uploads open at the server; the window starts after the first.
        SoakReport report = new SoakReport(run(STOPS, i -> 1 + 4 * (i / 15)), results(List.of()), BOUNDS);

        assertThat(report.failures()).noneMatch(f -> f.contains("uploads"));
        assertThat(report.trends().get(SoakFigure.UPLOADS_AT_SERVER).grew())
                .as("the plain trend would call it growth")
                .isTrue();
    }

    @Test
    void uploadsPilingUpBetweenStopsFail() {
        SoakReport report = new SoakReport(run(STOPS, i -> 1 + i % 15), results(List.of()), BOUNDS);

        assertThat(report.failures()).contains("multipart uploads open at the server grew between TaskManager stops");
    }

    @Test
    void moreUploadsLeftAtAStopThanItsBoundFail() {
        SoakReport report = new SoakReport(run(STOPS, i -> i < 30 ? 1 : 9), results(List.of()), BOUNDS);

        assertThat(report.failures())
                .anyMatch(f -> f.startsWith("multipart uploads open at the server rose by 8.0 uploads at TaskManager"
                        + " stop 1 of the window, more than 4"));
    }

    @Test
    void aStopMayLeaveEachSubtasksSinkFileAndTransferStreamsAndTheMetadata() {
        assertThat(SoakReport.uploadsOneStopCanLeave(2, 4)).isEqualTo(2 * (4 + 1) + 1);
        assertThat(SoakReport.uploadsOneStopCanLeave(3, 8)).isEqualTo(3 * (8 + 1) + 1);
    }

    /** TaskManagers stopped at 29, 59 and 89 s; the trends' window starts 6 s after the first. */
    private static final List<SoakOutcome.Kill> STOPS = List.of(
            new SoakOutcome.Kill(T0 + 29_000, 15, 14, 1_000, true),
            new SoakOutcome.Kill(T0 + 59_000, 30, 29, 1_000, true),
            new SoakOutcome.Kill(T0 + 89_000, 45, 44, 1_000, true));

    private static SoakOutcome run() {
        return run(List.of(), i -> 1);
    }

    /** 60 samples and checkpoints 2 s apart; {@code uploadsAtServer} gives sample i's uploads open at the server. */
    private static SoakOutcome run(List<SoakOutcome.Kill> kills, java.util.function.IntUnaryOperator uploadsAtServer) {
        List<SoakSample> samples = new ArrayList<>();
        List<SoakOutcome.Checkpoint> checkpoints = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            long at = T0 + i * 2_000L;
            samples.add(new SoakSample(at, 100 << 20, 0, 0, 0, 1, 8, 100, 250, 2, uploadsAtServer.applyAsInt(i)));
            long duration = at == SLOW_TRIGGER ? 8_200 : 300;
            checkpoints.add(new SoakOutcome.Checkpoint(i + 1, true, at, duration, ""));
        }
        return new SoakOutcome(
                samples,
                checkpoints,
                kills,
                10,
                "d",
                "d",
                new SinkVerification(10, 10, 0, 0, 0, 1, 0),
                new SoakOutcome.UploadsAtEnd(0, 0, List.of()),
                "none",
                "",
                T0 + 120_000);
    }

    private static BenchmarkResults results(List<Long> heldBack) {
        S3Faults faults = new S3Faults(0.03, 0.005, 42, 1, 1, 1, 0, heldBack.size(), 9_000, heldBack);
        return new BenchmarkResults("2027-01-15", null, null, List.of(), faults);
    }
}
