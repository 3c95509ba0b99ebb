package dev.flinks3.bench.checkpoint.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.report.ReportWriter;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.RunResult;
import dev.flinks3.bench.checkpoint.results.S3Faults;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import dev.flinks3.bench.checkpoint.stats.CheckpointSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Local mode under faults: the embedded server answers 12% of signed requests with 500 or
 * 503 and closes 2% of connections without an answer (the run sends about 70 requests, so at 3.5% in all it injected
 * none about one run in twelve; at 14% that takes a run in 30,000, and 11 failed attempts in a row one far rarer). Checkpoints complete, or fail one by one
 * without stopping the job; the job restores from the last completed checkpoint and the restore
 * verifies every key; results.json and report.md say which faults were injected.
 */
class LocalModeFaultsIT {

    private static final Path OUTPUT = LocalModeProcess.TARGET.resolve("smoke-local-faults");
    private static final int KEYS = 200;

    private static LocalModeProcess run;

    @BeforeAll
    static void runLocalModeWithFaults() throws Exception {
        run = LocalModeProcess.run(
                OUTPUT,
                List.of(
                        "--s3-profile",
                        "lan",
                        "--bucket",
                        "faults",
                        "--s3-faults",
                        "0.12",
                        "--s3-fault-seed",
                        "7",
                        "--numKeys",
                        Integer.toString(KEYS),
                        "--valueSizeKb",
                        "16",
                        "--recordsPerSecond",
                        "100",
                        "--duration",
                        "6s",
                        "--checkpointInterval",
                        "1s",
                        "--minPause",
                        "300ms",
                        "--parallelism",
                        "2",
                        "--restoreParallelism",
                        "1",
                        "--managed-memory",
                        "128m",
                        "--jvm-option",
                        "-Xmx768m"));
    }

    @Test
    void theServerInjectedFaultsAndTheResultsRecordThem() {
        S3Faults faults = run.results().s3Faults();

        assertThat(faults).isNotNull();
        assertThat(faults.errorRate()).isEqualTo(0.12);
        assertThat(faults.resetRate()).isEqualTo(0.02);
        assertThat(faults.seed()).isEqualTo(7);
        assertThat(faults.injected()).as(run.console()).isPositive();
        assertThat(run.console()).contains("S3 faults: errors 12.00%, resets 2.00%, seed 7");
    }

    @Test
    void everyCheckpointCompletedOrFailedCleanlyAndTheRestoreUsedTheLastCompletedOne() {
        RunResult result = onlyRun().run();
        List<CheckpointStats> checkpoints = result.checkpoints();
        List<CheckpointStats> completed =
                checkpoints.stream().filter(CheckpointStats::completed).toList();

        assertThat(completed).as(run.console()).isNotEmpty();
        assertThat(checkpoints).allSatisfy(c -> assertThat(c.status()).isIn("COMPLETED", "FAILED"));
        CheckpointStats last = completed.stream()
                .max(Comparator.comparingLong(CheckpointStats::id))
                .orElseThrow();
        assertThat(result.restore().checkpointId()).isEqualTo(last.id());
        assertThat(result.restore().checkpointPath()).isEqualTo(last.externalPath());
    }

    @Test
    void theRestoreVerifiedEveryKey() {
        assertThat(run.exitCode()).as(run.console()).isZero();
        RunResult result = onlyRun().run();
        assertThat(onlyRun().error()).isEmpty();
        assertThat(result.restore().verified()).isTrue();
        assertThat(result.restore().verifiedKeys()).isEqualTo(KEYS);
        assertThat(result.restore().restoredDigest()).isEqualTo(result.stateDigest());
    }

    @Test
    void theReportStatesTheFaultProfileAndTheCounts() throws Exception {
        S3Faults faults = run.results().s3Faults();
        CheckpointSummary summary = CheckpointSummary.of(onlyRun().run().checkpoints());
        String report = Files.readString(OUTPUT.resolve(ReportWriter.REPORT));

        assertThat(report)
                .contains(
                        "S3 faults (embedded server, seed 7): 12.00% of signed requests answered with 500 or 503, "
                                + "2.00% with the connection closed; injected " + faults.injected()
                                + " (500 InternalError "
                                + faults.internalErrors() + ", 503 SlowDown " + faults.slowDowns()
                                + ", connection closed "
                                + faults.resets() + ").",
                        "| checkpoints completed | " + summary.completed() + " |",
                        "| checkpoints failed | " + summary.failed() + " |",
                        "| restore verified | yes |");
    }

    private static ContenderResult onlyRun() {
        assertThat(run.results().contenders()).hasSize(1);
        return run.results().contenders().get(0);
    }
}
