package dev.flinks3.fs;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * The status of an object (a file) or of a key prefix (a directory). S3 has no access times,
 * replication or blocks; the block size is a fixed split size for Flink's input formats. Immutable.
 */
final class S3FileStatus implements FileStatus {

    /** Split size reported to input formats, in bytes; S3 itself has no blocks. */
    static final long BLOCK_SIZE = 64L * 1024 * 1024;

    private final Path path;
    private final long length;
    private final long modificationTime;
    private final boolean directory;

    private S3FileStatus(Path path, long length, long modificationTime, boolean directory) {
        this.path = path;
        this.length = length;
        this.modificationTime = modificationTime;
        this.directory = directory;
    }

    /**
     * @param length bytes
     * @param modificationTime ms since the epoch, 0 if unknown
     */
    static S3FileStatus file(Path path, long length, long modificationTime) {
        return new S3FileStatus(path, length, modificationTime, false);
    }

    static S3FileStatus directory(Path path) {
        return new S3FileStatus(path, 0, 0, true);
    }

    @Override
    public long getLen() {
        return length;
    }

    @Override
    public long getBlockSize() {
        return BLOCK_SIZE;
    }

    @Override
    public short getReplication() {
        return 1;
    }

    @Override
    public long getModificationTime() {
        return modificationTime;
    }

    @Override
    public long getAccessTime() {
        return 0;
    }

    @Override
    public boolean isDir() {
        return directory;
    }

    @Override
    public Path getPath() {
        return path;
    }

    @Override
    public String toString() {
        return (directory ? "Directory{" : "File{") + path + (directory ? "" : ", " + length + " bytes") + "}";
    }
}
