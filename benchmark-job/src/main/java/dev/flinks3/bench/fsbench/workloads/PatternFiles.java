package dev.flinks3.bench.fsbench.workloads;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;

/** Writes {@link PatternData} files through a Flink {@link FileSystem} and reads them back checked. */
final class PatternFiles {

    /** Bytes per {@code read} call when reading a file from start to end. */
    static final int READ_BUFFER_BYTES = 64 * 1024;

    private final FileSystem fs;
    private final PatternData data;

    PatternFiles(FileSystem fs, PatternData data) {
        this.fs = fs;
        this.data = data;
    }

    /**
     * Creates a file and writes it in calls of {@code writeBytes}, then closes it: the checkpoint
     * stream's life.
     *
     * @param mode {@link WriteMode#NO_OVERWRITE}, as Flink's checkpoint streams use, or overwrite for set-up
     */
    void write(Path path, long seed, long length, int writeBytes, WriteMode mode) throws IOException {
        try (FSDataOutputStream out = fs.create(path, mode)) {
            long position = 0;
            while (position < length) {
                int chunk = (int) Math.min(writeBytes, length - position);
                out.write(data.array(), data.offset(seed, position), chunk);
                position += chunk;
            }
        }
    }

    /** Writes the file unless one of the right length is already there (set-up of read workloads). */
    void ensure(Path path, long seed, long length, int writeBytes) throws IOException {
        try {
            FileStatus status = fs.getFileStatus(path);
            if (!status.isDir() && status.getLen() == length) {
                return;
            }
        } catch (FileNotFoundException absent) {
            // written below
        }
        write(path, seed, length, writeBytes, WriteMode.OVERWRITE);
    }

    /** The one stream's file that the read workloads read, written unless it is there already. */
    void ensureStreamFile(WorkloadContext context) throws IOException {
        ensure(
                context.streamFile(),
                WorkloadContext.STREAM_SEED,
                context.sizes().streamBytes(),
                context.sizes().writeBytes());
    }

    /**
     * Reads a whole file and checks every byte and the CRC32C.
     *
     * @return empty if right, otherwise what was wrong
     */
    String readChecked(Path path, long seed, long length) throws IOException {
        try (FSDataInputStream in = fs.open(path)) {
            return copyChecked(in, new ContentCheck(data, seed, path.toString(), 0), length);
        }
    }

    /** Reads a stream to its end into a check and returns the check's outcome. */
    static String copyChecked(InputStream in, ContentCheck check, long expectedLength) throws IOException {
        byte[] buffer = new byte[READ_BUFFER_BYTES];
        int read;
        while ((read = in.read(buffer, 0, buffer.length)) >= 0) {
            check.update(buffer, 0, read);
        }
        return check.result(expectedLength);
    }
}
