package dev.flinks3.transfer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.transfer.s3.S3TransferManager;
import software.amazon.awssdk.transfer.s3.model.DownloadFileRequest;

/**
 * Copies many objects to local files: what Flink's {@code PathsCopyingFileSystem} asks for when
 * RocksDB restores its files. At most {@code filesInFlight} files download at once and the next one
 * starts as soon as any one finishes; inside a file, ranges of {@code rangeBytes} are fetched by
 * {@code rangesPerFile} parallel ranged GETs ({@link RangedFileDownload}). On the CRT-based S3
 * client a file is one {@link S3TransferManager#downloadFile} instead, which that client splits
 * into parallel ranged GETs of its part size natively.
 *
 * <p>Thread-safe; each {@link #download} call is independent.
 */
public final class BulkDownloader {

    private final S3AsyncClient s3;
    private final SseDecorator sse;
    private final int filesInFlight;
    private final long rangeBytes;
    private final int rangesPerFile;
    private final S3TransferManager transferManager;

    /**
     * @param s3 the client to download with; not owned
     * @param sse the encryption to apply to each GET (SSE-C needs the customer key)
     * @param filesInFlight most files downloading at once, at least 1
     * @param rangeBytes bytes per ranged GET, at least 1
     * @param rangesPerFile ranged GETs of one file in flight at once, at least 1
     * @param transferManager the Transfer Manager on the CRT-based S3 client {@code s3} that downloads
     *     each file, or {@code null} for our own ranged GETs; not owned
     */
    BulkDownloader(S3AsyncClient s3, SseDecorator sse, int filesInFlight, long rangeBytes, int rangesPerFile,
            S3TransferManager transferManager) {
        if (filesInFlight < 1 || rangeBytes < 1 || rangesPerFile < 1) {
            throw new IllegalArgumentException("files in flight (" + filesInFlight + "), range size (" + rangeBytes
                    + " bytes) and ranges per file (" + rangesPerFile + ") must all be at least 1");
        }
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.sse = Objects.requireNonNull(sse, "sse");
        this.filesInFlight = filesInFlight;
        this.rangeBytes = rangeBytes;
        this.rangesPerFile = rangesPerFile;
        this.transferManager = transferManager;
    }

    /**
     * Downloads every object to its file, creating missing parent directories and replacing files
     * that exist. Blocks until all are done. Each ranged GET is retried by the SDK's retry strategy.
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
        if (transferManager != null) {
            return downloadFile(file);
        }
        return new RangedFileDownload(s3, sse, file.source(), file.target(), rangeBytes, rangesPerFile).start();
    }

    /** One {@code downloadFile} of the Transfer Manager; it replaces an existing file. */
    private CompletableFuture<Void> downloadFile(FileCopy file) {
        GetObjectRequest.Builder get = GetObjectRequest.builder().bucket(file.source().bucket()).key(file.source().key());
        sse.decorate(get);
        DownloadFileRequest request = DownloadFileRequest.builder()
                .getObjectRequest(get.build())
                .destination(file.target())
                .build();
        try {
            return S3Errors.translating(transferManager.downloadFile(request).completionFuture(), "GetObject",
                    file.source()).thenApply(completed -> null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(S3Errors.translate("GetObject", file.source(), e));
        }
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
