package dev.flinks3.bench.checkpoint.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.RecoveryClaimMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

@Timeout(30)
class JobLauncherTest {

    private static JobParameters parameters(String... args) {
        JobParameters parameters = new JobParameters();
        new CommandLine(parameters).parseArgs(args);
        return parameters.validate();
    }

    @Test
    void aRestoreClaimsItsCheckpointUnlessNoClaimIsAsked() {
        Configuration claimed =
                JobLauncher.submissionConfiguration(new Configuration(), parameters(), "s3://bucket/job/chk-5");
        Configuration copied = JobLauncher.submissionConfiguration(
                new Configuration(), parameters("--restore-claim-mode", "no_claim"), "s3://bucket/job/chk-5");

        assertThat(claimed.get(StateRecoveryOptions.SAVEPOINT_PATH)).isEqualTo("s3://bucket/job/chk-5");
        assertThat(claimed.get(StateRecoveryOptions.RESTORE_MODE)).isEqualTo(RecoveryClaimMode.CLAIM);
        assertThat(copied.get(StateRecoveryOptions.RESTORE_MODE)).isEqualTo(RecoveryClaimMode.NO_CLAIM);
        assertThat(JobLauncher.submissionConfiguration(new Configuration(), parameters(), null)
                        .contains(StateRecoveryOptions.SAVEPOINT_PATH))
                .as("a fresh start restores nothing")
                .isFalse();
    }

    @Test
    void anUnknownClaimModeIsRefusedWithWhatIsAllowed() {
        assertThatThrownBy(() -> parameters("--restore-claim-mode", "legacy"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--restore-claim-mode must be CLAIM or NO_CLAIM, was 'legacy'");
    }
}
