package dev.flinks3.fs;

import dev.flinks3.transfer.bulk.BulkDownloader;
import java.io.IOException;
import java.util.List;

/**
 * Copies many objects to local files at once: the seam between the filesystem and the Transfer
 * Manager's {@link BulkDownloader}, so the filesystem can be tested without an S3 client.
 */
@FunctionalInterface
public interface BulkCopy {

    /**
     * Downloads every object to its file and blocks until all are done.
     *
     * @throws IOException the first failure, naming its location; incomplete files are deleted.
     *     {@link java.io.InterruptedIOException} if the calling thread is interrupted.
     */
    void download(List<BulkDownloader.FileCopy> files) throws IOException;
}
