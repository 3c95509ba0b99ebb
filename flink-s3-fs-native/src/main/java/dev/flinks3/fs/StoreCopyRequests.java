package dev.flinks3.fs;

import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.bulk.ObjectCopies;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.ICloseableRegistry;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.PathsCopyingFileSystem.CopyRequest;

/**
 * Carries out Flink's {@code PathsCopyingFileSystem.copyFiles} for copies within the store: ForSt's checkpoints and
 * savepoints duplicate the SST files of its working directory into the checkpoint directory (Flink's {@code
 * FsCheckpointStateToolset}), and each copy is a server-side copy ({@link ObjectCopies}), so no byte of the files
 * passes through the TaskManager, nor through ForSt's file cache.
 *
 * <p>Cancellation: closing the given {@link ICloseableRegistry} interrupts the copying thread ({@link
 * CopyCancellation}); the copies in flight are then cancelled and a multipart copy aborted.
 */
final class StoreCopyRequests {

    private final ObjectCopies copies;
    private final BucketPaths paths;

    StoreCopyRequests(ObjectCopies copies, BucketPaths paths) {
        this.copies = copies;
        this.paths = paths;
    }

    /**
     * @throws IOException the first failed copy, naming its location; {@link InterruptedIOException} if cancelled
     */
    void copy(List<CopyRequest> requests, ICloseableRegistry registry) throws IOException {
        List<ObjectCopies.ObjectCopy> objects = new ArrayList<>(requests.size());
        for (CopyRequest request : requests) {
            S3Location source = paths.toLocation(request.getSource());
            S3Location target = paths.toLocation(request.getDestination());
            objects.add(ObjectCopies.ObjectCopy.of(source, target, knownSize(request)));
        }
        CopyCancellation cancellation = CopyCancellation.register(registry);
        try {
            copies.copy(objects);
        } finally {
            cancellation.finish();
        }
    }

    /**
     * The source's size as the request tells it (Flink 2.3's {@code CopyRequest.getSize()}, the state handle's size),
     * or -1 where Flink's request has no size (Flink 2.0 to 2.2); a negative size is taken as unknown.
     */
    static long knownSize(CopyRequest request) {
        try {
            return Math.max(-1, request.getSize());
        } catch (AbstractMethodError | NoSuchMethodError olderFlink) {
            return -1;
        }
    }

    /** Whether {@code path} is an object of {@code fsUri}'s scheme and bucket. */
    static boolean inBucket(Path path, java.net.URI fsUri) {
        java.net.URI uri = path.toUri();
        return fsUri.getScheme().equals(uri.getScheme())
                && fsUri.getAuthority() != null
                && fsUri.getAuthority().equals(uri.getAuthority());
    }
}
