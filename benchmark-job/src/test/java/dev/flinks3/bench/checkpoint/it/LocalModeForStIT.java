package dev.flinks3.bench.checkpoint.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ForSt run as a user starts it: {@code java -jar target/flinks3-benchmark-job.jar local --state-backend
 * forst} with small state on the embedded server ({@code lan}). Checks that checkpoints completed, ForSt's
 * primary directory is in the run's bucket, the restore verified every key, and that a ForSt job reads its
 * state from S3 while it runs (GETs in the checkpointing phase, with a cache smaller than the state).
 */
class LocalModeForStIT {

    private static final Path OUTPUT = LocalModeProcess.TARGET.resolve("smoke-local-forst");
    private static final String BUCKET = "smoke-forst";

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void aForStRunCheckpointsToS3AndRestoresVerifiedState() throws Exception {
        LocalModeProcess process = LocalModeProcess.run(
                OUTPUT,
                List.of(
                        "--state-backend",
                        "forst",
                        "--forst-cache-size",
                        "1m",
                        "--server-mode", // the full server keeps objects as files, which this test looks at
                        "full",
                        "--s3-profile",
                        "lan",
                        "--bucket",
                        BUCKET,
                        "--numKeys",
                        "400",
                        "--valueSizeKb",
                        "16",
                        "--recordsPerSecond",
                        "200",
                        "--duration",
                        "8s",
                        "--checkpointInterval",
                        "2s",
                        "--minPause",
                        "500ms",
                        "--parallelism",
                        "2",
                        "--managed-memory",
                        "128m",
                        "--jvm-option",
                        "-Xmx768m"));

        assertThat(process.exitCode()).as(process.console()).isZero();
        assertThat(process.console()).contains("forst (cache 1m), incremental checkpoints");
        ContenderResult result = process.results().contenders().get(0);
        RunResult run = result.run();
        assertThat(run.recordsProcessed()).isEqualTo(1600);
        assertThat(run.processingSeconds()).isPositive();
        assertThat(run.restore().verified()).isTrue();
        assertThat(run.restore().verifiedKeys()).isEqualTo(400);
        assertThat(run.restore().restoredDigest()).isEqualTo(run.stateDigest());
        assertThat(result.s3Traffic().get("checkpointing").requestsByOperation().getOrDefault("GetObject", 0L))
                .as("state read from S3 while the job runs")
                .isPositive();
        Path primary = OUTPUT.resolve("work/s3")
                .resolve(BUCKET)
                .resolve(OUTPUT.getFileName().toString())
                .resolve("ours")
                .resolve("forst");
        assertThat(primary).as("ForSt's primary directory, in the run's bucket").isDirectory();
        try (var entries = Files.list(primary)) {
            assertThat(entries.count()).isPositive();
        }
    }
}
