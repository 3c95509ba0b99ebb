package dev.flinks3.bench.checkpoint.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.results.S3Faults;
import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.soak.SoakOutcome;
import dev.flinks3.bench.soak.SoakReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short soak of CI: 140 s of the job on the embedded server (lan) with every fault kind and a
 * TaskManager stopped every 45 s (the trends start after the first stop's restore), held to looser bounds than the evidence run (a figure may rise 15% plus its
 * noise floor, checkpoint p99 2.5x) so a leak that grows with checkpoints fails the build. Exit code 0 means every
 * check of {@link SoakReport} held; the tests below say which.
 */
@Timeout(value = 8, unit = java.util.concurrent.TimeUnit.MINUTES)
class SoakIT {

    private static final Path OUTPUT = LocalModeProcess.TARGET.resolve("soak-short");

    private static LocalModeProcess run;
    private static SoakOutcome soak;

    @BeforeAll
    static void runTheShortSoak() throws Exception {
        run = LocalModeProcess.run(
                "soak",
                OUTPUT,
                List.of(
                        "--s3-profile", "lan",
                        "--bucket", "soak",
                        "--soak-duration", "140s",
                        "--sample-interval", "4s",
                        "--kill-interval", "45s",
                        "--warm-up-time", "30s",
                        "--s3-faults", "0.03",
                        "--s3-mid-body-resets", "0.005",
                        "--s3-slow-answers", "0.002",
                        "--s3-slow-answer-time", "9s",
                        "--attempt-timeout", "8s",
                        "--flat-tolerance", "0.15",
                        "--p99-factor", "2.5",
                        "--num-keys", "128",
                        "--value-size-kb", "64",
                        "--checkpoint-interval", "2s",
                        "--managed-memory", "128m",
                        "--jvm-option", "-Xmx768m"));
        soak = Json.read(OUTPUT.resolve("contenders").resolve("ours-soak.json"), SoakOutcome.class);
    }

    @Test
    void everyCheckOfTheSoakHeld() throws Exception {
        String report = Files.readString(OUTPUT.resolve(SoakReport.FILE));
        assertThat(run.exitCode()).as(report + run.console()).isZero();
        assertThat(report).startsWith("# Soak: passed").contains("Every check held.");
    }

    @Test
    void taskManagersWereStoppedAndEveryRestoreVerified() {
        assertThat(soak.kills()).as(run.console()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(soak.kills()).allSatisfy(kill -> {
            assertThat(kill.verified()).isTrue();
            assertThat(kill.restoredCheckpoint()).isPositive();
        });
    }

    @Test
    void theStateAndTheSinkHoldEveryRecordExactlyOnce() {
        assertThat(soak.liveDigest()).isEqualTo(soak.expectedDigest());
        assertThat(soak.sink().exactlyOnce()).as(soak.sink().toString()).isTrue();
        assertThat(soak.sink().distinct()).isEqualTo(140 * 100);
        assertThat(run.results().contenders().get(0).run().restore().verified()).isTrue();
    }

    @Test
    void everyFigureWasSampledAndEveryFaultKindInjected() {
        assertThat(soak.samples()).hasSizeGreaterThan(20);
        assertThat(soak.samples()).allSatisfy(sample -> {
            assertThat(sample.heapAfterGcBytes()).isPositive();
            assertThat(sample.threads()).isPositive();
            assertThat(sample.openFileDescriptors()).isPositive();
            assertThat(sample.uploadsOpenAtServer()).isNotNegative();
            assertThat(sample.bufferedBytes()).isNotNegative();
        });
        assertThat(soak.samples().stream()
                        .mapToLong(s -> s.connectionsOpen())
                        .max()
                        .orElse(0))
                .isPositive();
        S3Faults faults = run.results().s3Faults();
        assertThat(faults.internalErrors()).isPositive();
        assertThat(faults.slowDowns()).isPositive();
        assertThat(faults.resets() + faults.midBodyResets()).isPositive();
        assertThat(faults.slowAnswers()).isPositive();
        assertThat(faults.slowAnswerEpochMillis()).hasSize((int) faults.slowAnswers());
    }
}
