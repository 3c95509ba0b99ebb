package dev.flinks3.fs;

import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.UploadStreams;
import dev.flinks3.transfer.read.ReadAheadBudget;
import java.net.URI;
import org.apache.flink.core.fs.PathsCopyingFileSystem;

/**
 * The {@link S3FileSystem} that Flink 2.x's RocksDB and ForSt restores hand their state files to in one
 * {@link PathsCopyingFileSystem#copyFiles} call ({@link S3FileSystem#canCopyPaths} and {@link
 * S3FileSystem#copyFiles} implement it).
 *
 * <p>Flink 1.20 has no {@code PathsCopyingFileSystem} (nor {@code ICloseableRegistry}): a class that
 * implements it cannot be defined there, so {@link S3FileSystemFactory} creates this class only where
 * the interface exists (it looks the interface up by name), and a plain {@link S3FileSystem}
 * elsewhere, which Flink 1.20 reads file by file through {@link S3FileSystem#open}. One jar serves both.
 * The factory calls {@link #create}, typed {@link S3FileSystem}: a constructor call there would make
 * the JVM's verifier load this class to check the assignment, on Flink 1.20 too.
 */
public final class PathsCopyingS3FileSystem extends S3FileSystem implements PathsCopyingFileSystem {

    /**
     * A filesystem of this class; the arguments of {@link S3FileSystem}'s constructor of the same shape.
     * Call it only where Flink has {@code PathsCopyingFileSystem} (Flink 2.x).
     */
    public static S3FileSystem create(
            URI uri,
            ObjectClient client,
            UploadEngine uploads,
            UploadStreams streams,
            BulkCopy bulkCopy,
            ReadAheadBudget readAhead,
            S3FileSystemSettings settings) {
        return new PathsCopyingS3FileSystem(uri, client, uploads, streams, bulkCopy, readAhead, settings);
    }

    private PathsCopyingS3FileSystem(
            URI uri,
            ObjectClient client,
            UploadEngine uploads,
            UploadStreams streams,
            BulkCopy bulkCopy,
            ReadAheadBudget readAhead,
            S3FileSystemSettings settings) {
        super(uri, client, uploads, streams, bulkCopy, readAhead, settings);
    }
}
