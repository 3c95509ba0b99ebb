package dev.flinks3.fs;

import dev.flinks3.transfer.bulk.BulkDownloader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.ICloseableRegistry;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.PathsCopyingFileSystem.CopyRequest;

/**
 * Carries out Flink's {@code PathsCopyingFileSystem.copyFiles}: RocksDB restore asks for many state
 * files to be copied from S3 to local disk, and they go through one {@link BulkCopy}.
 *
 * <p>Cancellation: Flink closes the given {@link ICloseableRegistry} when the restoring task is
 * cancelled; that interrupts the thread that waits for the downloads ({@link CopyCancellation}), and the
 * bulk copy then cancels what is running and deletes incomplete files.
 */
final class LocalCopyRequests {

    private final BulkCopy bulkCopy;
    private final BucketPaths paths;

    LocalCopyRequests(BulkCopy bulkCopy, BucketPaths paths) {
        this.bulkCopy = bulkCopy;
        this.paths = paths;
    }

    /** True if the destination is a local file ({@code file:} scheme or none). */
    static boolean isLocal(Path destination) {
        String scheme = destination.toUri().getScheme();
        return scheme == null || scheme.equals("file");
    }

    /**
     * @throws IOException the first failed download; {@link InterruptedIOException} if cancelled
     */
    void copy(List<CopyRequest> requests, ICloseableRegistry registry) throws IOException {
        List<BulkDownloader.FileCopy> files = new ArrayList<>(requests.size());
        for (CopyRequest request : requests) {
            if (!isLocal(request.getDestination())) {
                throw new IOException("Can only copy to local files, not to " + request.getDestination());
            }
            files.add(BulkDownloader.FileCopy.of(
                    paths.toLocation(request.getSource()), localFile(request.getDestination())));
        }
        CopyCancellation cancellation = CopyCancellation.register(registry);
        try {
            bulkCopy.download(files);
        } finally {
            cancellation.finish();
        }
    }

    private static java.nio.file.Path localFile(Path destination) {
        URI uri = destination.toUri();
        return uri.getScheme() == null ? Paths.get(uri.getPath()) : Paths.get(uri);
    }
}
