package dev.flinks3.bench.checkpoint.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.results.S3Faults;
import dev.flinks3.bench.soak.SoakOutcome;
import dev.flinks3.bench.soak.SoakReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short soak of CI ({@link ShortSoak}): held to the {@code short} rules of docs/soak.md, under which one file
 * descriptor, thread or connection left behind per checkpoint or per TaskManager stop fails ({@link SoakLeakIT}
 * shows it). Exit code 0 means every check of {@link SoakReport} held; the tests below say which.
 */
@Timeout(value = 8, unit = java.util.concurrent.TimeUnit.MINUTES)
class SoakIT {

    private static final Path OUTPUT = LocalModeProcess.TARGET.resolve("soak-short");

    private static LocalModeProcess run;
    private static SoakOutcome soak;

    @BeforeAll
    static void runTheShortSoak() throws Exception {
        ShortSoak shortSoak = ShortSoak.run(OUTPUT, LocalModeProcess.ourPluginJar(), List.of());
        run = shortSoak.process();
        soak = shortSoak.soak();
    }

    @Test
    void everyCheckOfTheSoakHeld() throws Exception {
        String report = Files.readString(OUTPUT.resolve(SoakReport.FILE));
        assertThat(run.exitCode()).as(report + run.console()).isZero();
        assertThat(report).startsWith("# Soak: passed").contains("Every check held.");
    }

    @Test
    void taskManagersWereStoppedOftenEnoughToJudgeEachStopAndEveryRestoreVerified() {
        assertThat(soak.kills()).as(run.console()).hasSizeGreaterThanOrEqualTo(4);
        assertThat(soak.kills()).allSatisfy(kill -> {
            assertThat(kill.verified()).isTrue();
            assertThat(kill.restoredCheckpoints())
                    .allSatisfy(id -> assertThat(id).isPositive());
        });
    }

    @Test
    void theStateAndTheSinkHoldEveryRecordExactlyOnce() {
        SoakOutcome.JobOutcome main = soak.jobs().get(0);
        assertThat(main.liveDigest()).isEqualTo(main.expectedDigest());
        assertThat(main.sink().exactlyOnce()).as(main.sink().toString()).isTrue();
        assertThat(main.sink().distinct()).isEqualTo(ShortSoak.RECORDS);
        assertThat(main.finalRestore().verified()).isTrue();
    }

    @Test
    void everyFigureWasSampledAndEveryFaultKindInjected() {
        assertThat(soak.samples()).hasSizeGreaterThan(100);
        assertThat(soak.samples()).allSatisfy(sample -> {
            assertThat(sample.heapAfterGcBytes()).isPositive();
            assertThat(sample.threads()).isPositive();
            assertThat(sample.openFileDescriptors()).isPositive();
            assertThat(sample.bufferedBytes()).isNotNegative();
        });
        assertThat(soak.server()).allSatisfy(sample -> assertThat(sample.open()).isNotNegative());
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
