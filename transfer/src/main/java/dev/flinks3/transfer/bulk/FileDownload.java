package dev.flinks3.transfer.bulk;

import dev.flinks3.transfer.S3Location;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/** How {@link BulkDownloader} copies one object to one local file. Implementations are thread-safe. */
@FunctionalInterface
public interface FileDownload {

    /**
     * Starts copying {@code source} to {@code target}, whose parent directory exists, replacing the file
     * if there is one.
     *
     * @return a future that completes when the file holds exactly the object's bytes, or fails with the
     *     first failure ({@link java.io.FileNotFoundException} for a missing object, an {@link
     *     java.io.IOException} naming the location otherwise); cancelling it cancels the requests in
     *     flight. A failed download may leave a partial file for the caller to delete.
     */
    CompletableFuture<Void> start(S3Location source, Path target);
}
