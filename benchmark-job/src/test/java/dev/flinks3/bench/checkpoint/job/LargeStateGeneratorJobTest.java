package dev.flinks3.bench.checkpoint.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job as a cluster's entry class runs it: to its end, with a final checkpoint. */
class LargeStateGeneratorJobTest {

    @TempDir
    Path work;

    @Test
    void mainRunsTheJobUntilItFinishesAfterItsLastRecord() throws Exception {
        Path checkpoints = work.resolve("checkpoints");

        LargeStateGeneratorJob.main(new String[] {
            "--numKeys",
            "50",
            "--valueSizeKb",
            "4",
            "--recordsPerSecond",
            "200",
            "--duration",
            "1s",
            "--checkpointInterval",
            "300ms",
            "--minPause",
            "100ms",
            "--parallelism",
            "2",
            "--checkpointDir",
            checkpoints.toUri().toString()
        });

        assertThat(metadataFiles(checkpoints))
                .as("completed checkpoints under " + checkpoints)
                .isPositive();
    }

    private static long metadataFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.getFileName().toString().equals("_metadata"))
                    .count();
        }
    }
}
