package dev.flinks3.transfer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.transfer.s3.S3TransferManager;
import software.amazon.awssdk.transfer.s3.model.DownloadFileRequest;

/**
 * Copies many objects to local files through the S3 Transfer Manager: what Flink's {@code
 * PathsCopyingFileSystem} asks for when RocksDB restores its files. At most {@code filesInFlight}
 * files download at once, and the next one starts as soon as any one finishes. Inside a file the
 * Transfer Manager fetches the parts of a multipart object with parallel GETs.
 *
 * <p>Thread-safe; each {@link #download} call is independent.
 */
public final class BulkDownloader {

    private final S3TransferManager transferManager;
    private final SseDecorator sse;
    private final int filesInFlight;

    /**
     * @param transferManager the Transfer Manager to download with; not owned
     * @param sse the encryption to apply to each GET (SSE-C needs the customer key)
     * @param filesInFlight most files downloading at once, at least 1
     */
    public BulkDownloader(S3TransferManager transferManager, SseDecorator sse, int filesInFlight) {
        if (filesInFlight < 1) {
            throw new IllegalArgumentException("filesInFlight " + filesInFlight + " must be at least 1");
        }
        this.transferManager = Objects.requireNonNull(transferManager, "transferManager");
        this.sse = Objects.requireNonNull(sse, "sse");
        this.filesInFlight = filesInFlight;
    }

    /**
     * Downloads every object to its file, creating missing parent directories and replacing files
     * that exist. Blocks until all are done. Each GET is retried by the SDK's retry strategy.
     *
     * @throws java.io.FileNotFoundException if an object does not exist (the message names it)
     * @throws IOException the first failure, naming its {@code s3://} location, with later failures
     *     suppressed; downloads still running are cancelled and every file not completely
     *     downloaded is deleted before this is thrown. {@link java.io.InterruptedIOException} if the
     *     thread is interrupted, with the same clean-up.
     */
    public void download(List<FileCopy> files) throws IOException {
        Set<Path> complete = ConcurrentHashMap.newKeySet();
        Set<Path> started = ConcurrentHashMap.newKeySet();
        try {
            SlidingWindow.run(files, filesInFlight, file -> {
                started.add(file.target());
                return start(file).thenApply(done -> complete.add(file.target()));
            });
        } catch (IOException e) {
            started.removeAll(complete);
            for (Path partial : started) {
                try {
                    Files.deleteIfExists(partial);
                } catch (IOException deleteFailure) {
                    e.addSuppressed(deleteFailure);
                }
            }
            throw e;
        }
    }

    private CompletableFuture<Void> start(FileCopy file) {
        try {
            Path parent = file.target().toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        DownloadFileRequest request = DownloadFileRequest.builder()
                .getObjectRequest(get -> sse.decorate(get.bucket(file.source().bucket()).key(file.source().key())))
                .destination(file.target())
                .build();
        return S3Errors.translating(
                transferManager.downloadFile(request).completionFuture(), done -> null, "GetObject", file.source());
    }

    /** One object and the local file it is copied to. Immutable. */
    public static final class FileCopy {
        private final S3Location source;
        private final Path target;

        private FileCopy(S3Location source, Path target) {
            this.source = Objects.requireNonNull(source, "source");
            this.target = Objects.requireNonNull(target, "target");
        }

        public static FileCopy of(S3Location source, Path target) {
            return new FileCopy(source, target);
        }

        public S3Location source() {
            return source;
        }

        public Path target() {
            return target;
        }

        @Override
        public String toString() {
            return source + " -> " + target;
        }
    }
}
