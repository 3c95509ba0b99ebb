package dev.flinks3.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import dev.flinks3.bench.checkpoint.results.S3Faults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak's verdict on made-up runs of 200 s: a JobManager, a TaskManager that lives through every stop and one
 * killed at each of 7 stops (20 s apart from 30 s on, each recovered in 3 s), a sample of each process every second,
 * a checkpoint every 2 s; CI's rules ({@code short}).
 */
@Timeout(20)
class SoakReportTest {

    private static final long T0 = 1_800_000_000_000L;
    private static final long SLOW_TRIGGER = T0 + 170_000;
    private static final SoakReport.Bounds BOUNDS = new SoakReport.Bounds(SoakRules.shortRun(), 2.5, 10_000, 11);
    /** The publication rules' limits (with the short run's settle time, for stretches of 20 s). */
    private static final SoakReport.Bounds PER_HOUR = new SoakReport.Bounds(
            new SoakRules("publication", 2_000, SoakRules.publication().limits()), 2.5, 10_000, 11);

    private static final List<Long> STOPS_AT = List.of(30L, 50L, 70L, 90L, 110L, 130L, 150L);

    @TempDir
    Path output;

    @Test
    void aRunWhoseFiguresStayFlatPassesAndWritesItsReport() throws Exception {
        SoakReport report = new SoakReport(new Run().build(), results(List.of()), BOUNDS);

        assertThat(report.failures()).isEmpty();
        assertThat(report.growth().get(SoakFigure.THREADS))
                .containsKeys("jobmanager", "taskmanager-0", "taskmanager-1");
        assertThat(report.growth().get(SoakFigure.THREADS).get("taskmanager-0").stopsJudged())
                .isTrue();
        Path written = report.write(output, "soak ...");
        assertThat(Files.readString(written)).startsWith("# Soak: passed").contains("Every check held.");
        assertThat(output.resolve(SoakFigure.THREADS.chartFile())).exists();
    }

    @Test
    void aThreadLeftBehindAtEachStopInTheTaskManagerThatLivesThroughThemFails() {
        Run run = new Run();
        run.threads = (process, stop, generation, t) -> process.equals("taskmanager-0") ? 80 + stop : 80;

        SoakReport report = new SoakReport(run.build(), results(List.of()), BOUNDS);

        assertThat(report.failures())
                .anyMatch(
                        f -> f.startsWith(
                                "threads (but Flink's RPC dispatchers) of taskmanager-0 rose +1.00 threads per TaskManager stop"));
    }

    @Test
    void aKilledTaskManagerStartingHigherInEachNewProcessIsNotJudgedPerStop() {
        Run run = new Run();
        run.threads = (process, stop, generation, t) -> process.equals("taskmanager-1") ? 80 + 3 * generation : 80;

        SoakReport report = new SoakReport(run.build(), results(List.of()), BOUNDS);

        assertThat(report.failures()).isEmpty();
    }

    @Test
    void aDescriptorLeftBehindAtEachCheckpointFailsPerHourAndPerStop() {
        Run run = new Run();
        run.descriptors = (process, stop, generation, t) -> process.equals("jobmanager") ? 200 + t / 2_000 : 200;

        SoakReport perHour = new SoakReport(run.build(), results(List.of()), PER_HOUR);
        SoakReport shortRun = new SoakReport(run.build(), results(List.of()), BOUNDS);

        assertThat(perHour.failures())
                .anyMatch(f ->
                        f.startsWith("open file descriptors (but connections to S3 and RocksDB's database files) of"
                                        + " jobmanager grew +1")
                                && f.contains("per hour inside stretches, more than 4"));
        assertThat(shortRun.failures())
                .as("the short rules judge no slope per hour; 20 s between stops is 10 per stop")
                .noneMatch(f -> f.contains("per hour"))
                .anyMatch(f ->
                        f.startsWith("open file descriptors (but connections to S3 and RocksDB's database files) of"
                                + " jobmanager rose +10.00"));
    }

    @Test
    void uploadsAbandonedAtEachStopWithinTheBoundPassAndMoreFail() {
        Run within = new Run();
        within.abandonedPerStop = 4;
        Run beyond = new Run();
        beyond.abandonedPerStop = 12;

        assertThat(new SoakReport(within.build(), results(List.of()), BOUNDS).failures())
                .isEmpty();
        assertThat(new SoakReport(beyond.build(), results(List.of()), BOUNDS).failures())
                .anyMatch(f -> f.startsWith("multipart uploads open at the server, open at a stop already (abandoned)"
                        + " of S3 server rose +12.00 uploads per TaskManager stop"));
    }

    @Test
    void uploadsThatStayOpenFromLiveStreamsFail() {
        Run run = new Run();
        run.liveUploads = t -> t / 10_000;

        assertThat(new SoakReport(run.build(), results(List.of()), PER_HOUR).failures())
                .anyMatch(f -> f.startsWith(
                        "multipart uploads open at the server, started since the last stop of" + " S3 server"));
    }

    @Test
    void tooFewStopsToJudgeFail() {
        Run run = new Run();
        run.stops = List.of(30L, 50L);

        assertThat(new SoakReport(run.build(), results(List.of()), BOUNDS).failures())
                .contains("only 2 TaskManager stops after the warm-up with settled samples after them: the slope per"
                        + " stop needs 3 stretches after a stop");
    }

    @Test
    void aLostRecordAStopWithoutAVerifiedRestoreAndAnUnverifiedFinalRestoreFail() {
        Run run = new Run();
        run.liveDigest = "0000000000000bad";
        run.unverifiedStop = true;
        run.finalRestoreVerified = false;

        assertThat(new SoakReport(run.build(), results(List.of()), BOUNDS).failures())
                .anyMatch(f -> f.startsWith("main job: the state digest 0000000000000bad is not the expected"))
                .anyMatch(f -> f.startsWith("main job: the final restore from the last checkpoint did not verify"))
                .anyMatch(f -> f.startsWith("the stop of taskmanager-1 at ")
                        && f.endsWith("was not followed by a verified restore of every job"));
    }

    @Test
    void aSlowCheckpointInTheLastThirdMakesTheTailRise() {
        Run run = new Run();
        run.slowCheckpoint = true;

        SoakReport report = new SoakReport(run.build(), results(List.of()), BOUNDS);

        assertThat(report.failures()).anyMatch(f -> f.startsWith("main job: checkpoint duration p99 rose from 300 ms"));
    }

    @Test
    void aSlowCheckpointThatWaitedOnAnAnswerHeldBackOnPurposeIsLeftOutOfTheTail() {
        Run run = new Run();
        run.slowCheckpoint = true;

        SoakReport held = new SoakReport(run.build(), results(List.of(SLOW_TRIGGER + 100)), BOUNDS);
        // Held back 1.2 s before the trigger, for 9 s: a task waiting on it holds the barrier back.
        SoakReport stillHeld = new SoakReport(run.build(), results(List.of(SLOW_TRIGGER - 1_200)), BOUNDS);
        // Served 10 s before the trigger: the slow checkpoint still counts.
        SoakReport served = new SoakReport(run.build(), results(List.of(SLOW_TRIGGER - 19_000)), BOUNDS);

        assertThat(held.failures()).noneMatch(f -> f.contains("p99"));
        assertThat(stillHeld.failures()).noneMatch(f -> f.contains("p99"));
        assertThat(served.failures()).anyMatch(f -> f.contains("p99 rose"));
    }

    @Test
    void aStopMayAbandonEachSubtasksSinkFileAndTransferStreamsAndEachJobsMetadata() {
        JobParameters rocksDb = JobParameters.fromMap(Map.of("parallelism", "2", "rocksdb-transfer-threads", "4"));
        JobParameters forSt = JobParameters.fromMap(Map.of("parallelism", "2", "state-backend", "forst"));

        assertThat(SoakReport.uploadsOneStopCanLeave(List.of(rocksDb))).isEqualTo(2 * (4 + 1) + 1);
        assertThat(SoakReport.uploadsOneStopCanLeave(List.of(rocksDb, forSt))).isEqualTo(11 + 2 * 4 + 1);
    }

    /** A figure of a process as a function of the stops before the sample, its generation and the time, ms. */
    private interface Figure {
        long at(String process, int stop, int generation, long millis);
    }

    /** A made-up run, flat unless a test changes a figure. */
    private static final class Run {
        List<Long> stops = STOPS_AT;
        Figure threads = (process, stop, generation, t) -> 80;
        Figure descriptors = (process, stop, generation, t) -> 250;
        java.util.function.LongUnaryOperator liveUploads = t -> 1;
        int abandonedPerStop = 2;
        boolean slowCheckpoint;
        String liveDigest = "00000000000000d1";
        boolean unverifiedStop;
        boolean finalRestoreVerified = true;

        SoakOutcome build() {
            List<SoakOutcome.Kill> kills = new ArrayList<>();
            for (long at : stops) {
                kills.add(new SoakOutcome.Kill(
                        T0 + at * 1000, "taskmanager-1", 1, List.of(1L), 3_000, !unverifiedStop, 6));
            }
            List<SoakSample> samples = new ArrayList<>();
            List<ServerSample> server = new ArrayList<>();
            for (long t = 0; t < 200_000; t += 1_000) {
                long now = T0 + t;
                int stop =
                        (int) stops.stream().filter(s -> T0 + s * 1000 <= now).count();
                for (String process : List.of("jobmanager", "taskmanager-0", "taskmanager-1")) {
                    int generation = process.equals("taskmanager-1") ? stop : 0;
                    samples.add(new SoakSample(
                            now,
                            process,
                            generation,
                            100,
                            100_000_000,
                            threads.at(process, stop, generation, t),
                            descriptors.at(process, stop, generation, t),
                            8,
                            -1,
                            -1,
                            1,
                            0,
                            0,
                            0,
                            0));
                }
                long abandoned = (long) stop * abandonedPerStop;
                server.add(new ServerSample(now, abandoned + liveUploads.applyAsLong(t), abandoned));
            }
            List<SoakOutcome.Checkpoint> checkpoints = new ArrayList<>();
            for (long t = 0; t < 200_000; t += 2_000) {
                long at = T0 + t;
                long duration = slowCheckpoint && at == SLOW_TRIGGER ? 8_200 : 300;
                checkpoints.add(new SoakOutcome.Checkpoint(t / 2_000 + 1, true, at, duration, ""));
            }
            RestoreResult restore = new RestoreResult(
                    100,
                    "s3://b/chk-100",
                    2,
                    1,
                    1,
                    1,
                    2,
                    10,
                    10,
                    "d1",
                    "d1",
                    finalRestoreVerified,
                    0,
                    0,
                    0,
                    0,
                    "d1",
                    10,
                    2,
                    1);
            SoakOutcome.JobOutcome job = new SoakOutcome.JobOutcome(
                    "main",
                    "10 keys",
                    2,
                    checkpoints,
                    10,
                    "00000000000000d1",
                    liveDigest,
                    restore,
                    true,
                    new SinkVerification(10, 10, 0, 0, 0, 1, 0));
            return new SoakOutcome(
                    samples,
                    server,
                    List.of(job),
                    kills,
                    new SoakOutcome.UploadsAtEnd(0, 0, List.of()),
                    "kill -9",
                    "",
                    T0 + 200_000);
        }
    }

    private static BenchmarkResults results(List<Long> heldBack) {
        S3Faults faults = new S3Faults(0.03, 0.005, 42, 1, 1, 1, 0, heldBack.size(), 9_000, heldBack);
        return new BenchmarkResults("2027-01-15", null, null, List.of(), faults);
    }
}
