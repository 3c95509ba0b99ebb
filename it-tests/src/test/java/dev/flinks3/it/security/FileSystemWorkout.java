package dev.flinks3.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;

/**
 * One pass over every kind of request the filesystem sends, in a directory of its own: a small file
 * (PutObject), a multipart file (CreateMultipartUpload, UploadPart, CompleteMultipartUpload), reads
 * (GetObject), a status (HeadObject), a listing (ListObjectsV2), a rename (CopyObject, DeleteObject) and
 * a recursive delete (DeleteObjects). Checks the bytes read back.
 */
final class FileSystemWorkout {

    static final int MIB = 1024 * 1024;

    private FileSystemWorkout() {}

    /** Runs the pass under {@code dir}; the filesystem's part size must be 5 MiB. */
    static void run(FileSystem fs, Path dir) throws IOException {
        byte[] small = bytes(10_000, 1);
        byte[] large = bytes(11 * MIB, 2);
        Path smallFile = new Path(dir, "small");
        Path largeFile = new Path(dir, "large");
        write(fs, smallFile, small);
        write(fs, largeFile, large);
        assertThat(read(fs, smallFile)).isEqualTo(small);
        assertThat(read(fs, largeFile)).isEqualTo(large);
        assertThat(fs.getFileStatus(largeFile).getLen()).isEqualTo(large.length);
        assertThat(fs.listStatus(dir)).hasSize(2);
        Path moved = new Path(dir, "moved");
        assertThat(fs.rename(smallFile, moved)).isTrue();
        assertThat(read(fs, moved)).isEqualTo(small);
        assertThat(fs.delete(dir, true)).isTrue();
        assertThat(fs.exists(dir)).isFalse();
    }

    static void write(FileSystem fs, Path path, byte[] data) throws IOException {
        try (FSDataOutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
            out.write(data);
        }
    }

    static byte[] read(FileSystem fs, Path path) throws IOException {
        try (InputStream in = fs.open(path)) {
            return in.readAllBytes();
        }
    }

    static byte[] bytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
