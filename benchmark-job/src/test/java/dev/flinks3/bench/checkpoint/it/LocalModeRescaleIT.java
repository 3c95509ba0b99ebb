package dev.flinks3.bench.checkpoint.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.job.EmittedState;
import dev.flinks3.bench.checkpoint.job.RecordGenerator;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import dev.flinks3.bench.checkpoint.results.RunResult;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rescale runs of the main job as a user starts them ({@code local --parallelism 2 --restore-parallelism 3}
 * and 3 to 2: up with RocksDB, down with ForSt; each run is a JVM of its own, so the other two pairs would add a
 * minute to CI for the same key-group redistribution), at small size on the embedded server: each ends in a restore whose state read
 * back equals the state the source's records make (replayed here from the record generator, independently of the
 * job), after the restored job processed its records after the restore; the restore's traffic is counted, the
 * report has its rescale row, and ForSt's SST objects lie in the checkpoint on the server, known by their footer
 * (Flink names them by a UUID).
 */
class LocalModeRescaleIT {

    private static final int KEYS = 300;
    private static final int VALUE_KB = 8;
    private static final long RECORDS = 600;
    private static final long AFTER_RESTORE = 300;

    /** The last 8 bytes of a RocksDB (and ForSt) block-based table file: its magic number, little-endian. */
    private static final long TABLE_MAGIC = 0x88e241b785f4cff7L;

    /** How Flink names the files of an incremental checkpoint's shared/ folder. */
    private static final String UUID_NAME = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({"rocksdb, 2, 3", "forst, 3, 2"})
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aRescaleEndsInAStateVerifiedAgainstTheSource(String backend, int from, int to) throws Exception {
        Path output = LocalModeProcess.TARGET.resolve("rescale-" + backend + "-" + from + "-" + to);
        String bucket = "rescale-" + backend;
        LocalModeProcess process = LocalModeProcess.run(
                output,
                List.of(
                        "--state-backend",
                        backend,
                        "--forst-cache-size",
                        "1m",
                        "--s3-profile",
                        "lan",
                        "--bucket",
                        bucket,
                        "--server-mode", // the full server keeps objects as files, which this test counts
                        "full",
                        "--numKeys",
                        Integer.toString(KEYS),
                        "--valueSizeKb",
                        Integer.toString(VALUE_KB),
                        "--recordsPerSecond",
                        "200",
                        "--duration",
                        "3s",
                        "--checkpointInterval",
                        "1s",
                        "--minPause",
                        "300ms",
                        "--parallelism",
                        Integer.toString(from),
                        "--restore-parallelism",
                        Integer.toString(to),
                        "--records-after-restore",
                        Long.toString(AFTER_RESTORE),
                        "--managed-memory",
                        "128m",
                        "--jvm-option",
                        "-Xmx768m"));

        assertThat(process.exitCode()).as(process.console()).isZero();
        ContenderResult result = process.results().contenders().get(0);
        RunResult run = result.run();
        RestoreResult restore = run.restore();
        assertThat(run.recordsProcessed()).isEqualTo(RECORDS);
        assertThat(restore.checkpointParallelism()).isEqualTo(from);
        assertThat(restore.parallelism()).isEqualTo(to);
        assertThat(restore.verifiedSubtasks()).isEqualTo(to);
        assertThat(restore.recordsAfterRestore()).isEqualTo(AFTER_RESTORE);

        // What the source emitted, computed here from the generator alone: before the checkpoint, and after.
        EmittedState[] emitted =
                EmittedState.after(new RecordGenerator(KEYS, VALUE_KB * 1024), RECORDS, RECORDS + AFTER_RESTORE);
        assertThat(run.stateDigest()).isEqualTo(String.format("%016x", emitted[0].digest()));
        assertThat(restore.restoredDigest()).isEqualTo(String.format("%016x", emitted[1].digest()));
        assertThat(restore.sourceDigest()).isEqualTo(restore.restoredDigest());
        assertThat(restore.verifiedKeys()).isEqualTo(KEYS).isEqualTo(emitted[1].keys());
        assertThat(restore.verified()).isTrue();

        assertThat(restore.submitToRunningMs()).isPositive();
        assertThat(restore.submitToFirstRecordMs()).isPositive();
        assertThat(restore.recordsPerSecondWindow1() + restore.recordsPerSecondWindow2())
                .as("records after the restore, counted in the windows")
                .isPositive();
        assertThat(result.s3Traffic().get("restore").requests())
                .as("requests counted during the restore")
                .isPositive();
        assertThat(Files.readString(output.resolve("report.md")))
                .contains("## Restore and rescale")
                .contains("| " + from + " -> " + to + " |");

        if (backend.equals("forst")) {
            // ForSt's working files are gone once the restored job ends; what stays is the checkpoint's shared/
            // folder, whose objects Flink names by a UUID, so an SST is known by its footer, not by ".sst".
            Path runObjects = output.resolve("work/s3")
                    .resolve(bucket)
                    .resolve(output.getFileName().toString());
            List<Path> shared;
            try (Stream<Path> files = Files.walk(runObjects)) {
                shared = files.filter(f -> Files.isRegularFile(f)
                                && f.getParent().getFileName().toString().equals("shared"))
                        .toList();
            }
            assertThat(shared.stream().filter(LocalModeRescaleIT::endsInTableMagic))
                    .as("ForSt's SST objects in the checkpoint's shared/ folder, by their footer")
                    .isNotEmpty()
                    .allSatisfy(sst -> assertThat(sst.getFileName().toString()).matches(UUID_NAME));
        } else {
            assertThat(result.s3Traffic().get("restore").bytesRead())
                    .as("RocksDB downloads its files to restore")
                    .isPositive();
        }
    }

    private static boolean endsInTableMagic(Path file) {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            if (in.length() < Long.BYTES) {
                return false;
            }
            in.seek(in.length() - Long.BYTES);
            return Long.reverseBytes(in.readLong()) == TABLE_MAGIC;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
