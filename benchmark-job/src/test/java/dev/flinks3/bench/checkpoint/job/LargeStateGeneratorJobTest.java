package dev.flinks3.bench.checkpoint.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job as a cluster's entry class runs it: to its end, checkpointing on the way. The checkpoints' metadata
 * files are watched while the job runs: Flink deletes the checkpoints of a job that finished (even those retained
 * on cancellation), at some moment after the job ends, so what is left afterwards proves nothing.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LargeStateGeneratorJobTest {

    @TempDir
    Path work;

    @Test
    void mainRunsTheJobUntilItFinishesAfterItsLastRecord() throws Exception {
        Path checkpoints = work.resolve("checkpoints");
        Set<Path> metadataSeen = ConcurrentHashMap.newKeySet();
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
        watcher.scheduleWithFixedDelay(
                () -> metadataSeen.addAll(metadataFiles(checkpoints)), 0, 10, TimeUnit.MILLISECONDS);
        try {
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
        } finally {
            watcher.shutdownNow();
            watcher.awaitTermination(10, TimeUnit.SECONDS);
        }

        assertThat(metadataSeen)
                .as("checkpoints completed under " + checkpoints + " while the job ran")
                .isNotEmpty();
    }

    /** The _metadata files under {@code root} now, none while it does not exist. */
    private static Set<Path> metadataFiles(Path root) {
        if (!Files.isDirectory(root)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.getFileName().toString().equals("_metadata"))
                    .collect(Collectors.toSet());
        } catch (NoSuchFileException | UncheckedIOException e) {
            // A checkpoint directory deleted during the walk (a subsumed checkpoint): the next poll sees the rest.
            return Set.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
