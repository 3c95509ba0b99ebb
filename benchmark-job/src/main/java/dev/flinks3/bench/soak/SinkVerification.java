package dev.flinks3.bench.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Reads every committed part file of the soak's FileSink (through the filesystem plugin under test) and checks
 * that each record index {@code 0 .. records-1} is in them exactly once. In-progress and pending part files,
 * whose names start with a dot, are not committed and not read.
 *
 * @param expected records the job processed
 * @param distinct indices found at least once
 * @param duplicates lines beyond the first for an index
 * @param missing indices found in no committed file
 * @param outOfRange lines that are not an index of the sequence
 * @param partFiles committed part files read
 * @param uncommittedFiles files left with a leading dot (in-progress or pending), not read
 */
public record SinkVerification(
        long expected,
        long distinct,
        long duplicates,
        long missing,
        long outOfRange,
        long partFiles,
        long uncommittedFiles) {

    /** Whether every record is there exactly once. */
    public boolean exactlyOnce() {
        return distinct == expected && duplicates == 0 && missing == 0 && outOfRange == 0;
    }

    /**
     * @param directory the FileSink's base directory, e.g. {@code s3://bucket/run/sink}
     * @param records the records the source emitted
     * @throws IOException if the directory or a file cannot be read
     */
    public static SinkVerification of(Path directory, long records) throws IOException {
        FileSystem fs = directory.getFileSystem();
        BitSet seen = new BitSet((int) Math.min(Integer.MAX_VALUE, records));
        long duplicates = 0;
        long outOfRange = 0;
        long parts = 0;
        long uncommitted = 0;
        for (Path file : files(fs, directory)) {
            if (file.getName().startsWith(".")) {
                uncommitted++;
                continue;
            }
            parts++;
            try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    long index;
                    try {
                        index = Long.parseLong(line.trim());
                    } catch (NumberFormatException e) {
                        outOfRange++;
                        continue;
                    }
                    if (index < 0 || index >= records) {
                        outOfRange++;
                    } else if (seen.get((int) index)) {
                        duplicates++;
                    } else {
                        seen.set((int) index);
                    }
                }
            }
        }
        long distinct = seen.cardinality();
        return new SinkVerification(records, distinct, duplicates, records - distinct, outOfRange, parts, uncommitted);
    }

    private static List<Path> files(FileSystem fs, Path directory) throws IOException {
        List<Path> files = new ArrayList<>();
        if (!fs.exists(directory)) {
            return files;
        }
        FileStatus[] statuses = fs.listStatus(directory);
        if (statuses == null) {
            return files;
        }
        for (FileStatus status : statuses) {
            if (status.isDir()) {
                files.addAll(files(fs, status.getPath()));
            } else {
                files.add(status.getPath());
            }
        }
        return files;
    }
}
