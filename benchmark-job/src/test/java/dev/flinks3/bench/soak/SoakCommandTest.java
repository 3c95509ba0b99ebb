package dev.flinks3.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

@Timeout(30)
class SoakCommandTest {

    @Test
    void theForStJobRunsAtHalfTheMainJobsRateForTheSameTime() {
        JobParameters main = new JobParameters();
        new CommandLine(main).parseArgs("--recordsPerSecond", "100", "--duration", "2h", "--parallelism", "2");
        main.validate();

        JobParameters forst = SoakCommand.forStJob(main);

        assertThat(forst.recordsPerSecond()).isEqualTo(50.0);
        assertThat(forst.duration()).isEqualTo(Duration.ofHours(2));
        assertThat(forst.totalRecords()).isEqualTo(360_000);
        assertThat(forst.parallelism()).isEqualTo(2);
    }
}
