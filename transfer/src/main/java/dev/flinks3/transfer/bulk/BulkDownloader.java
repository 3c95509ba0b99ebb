package dev.flinks3.transfer.bulk;

import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.SlidingWindow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Copies many objects to local files: what Flink's {@code PathsCopyingFileSystem} asks for when
 * RocksDB restores its files. At most {@code filesInFlight} files download at once and the next one
 * starts as soon as any one finishes; each file is one {@link FileDownload}. {@link #ranged} splits a
 * file into ranges of {@code rangeBytes} fetched by {@code rangesPerFile} parallel ranged GETs through
 * the {@link ObjectClient} ({@link RangedFileDownload}); on the CRT-based S3 client a file is one
 * Transfer Manager {@code downloadFile} instead (the {@code crt} package's {@code TransferManagerDownload}).
 *
 * <p>Thread-safe; each {@link #download} call is independent.
 */
public final class BulkDownloader {

    private final FileDownload fileDownload;
    private final int filesInFlight;

    /**
     * @param fileDownload copies each file
     * @param filesInFlight most files downloading at once, at least 1
     */
    public BulkDownloader(FileDownload fileDownload, int filesInFlight) {
        if (filesInFlight < 1) {
            throw new IllegalArgumentException("files in flight (" + filesInFlight + ") must be at least 1");
        }
        this.fileDownload = Objects.requireNonNull(fileDownload, "fileDownload");
        this.filesInFlight = filesInFlight;
    }

    /**
     * A bulk downloader of parallel ranged GETs through {@code client}.
     *
     * @param client the client to download with; not owned
     * @param filesInFlight most files downloading at once, at least 1
     * @param rangeBytes bytes per ranged GET, at least 1
     * @param rangesPerFile ranged GETs of one file in flight at once, at least 1
     */
    public static BulkDownloader ranged(ObjectClient client, int filesInFlight, long rangeBytes, int rangesPerFile) {
        if (rangeBytes < 1 || rangesPerFile < 1) {
            throw new IllegalArgumentException("range size (" + rangeBytes + " bytes) and ranges per file ("
                    + rangesPerFile + ") must both be at least 1");
        }
        Objects.requireNonNull(client, "client");
        return new BulkDownloader(
                (source, target) -> new RangedFileDownload(client, source, target, rangeBytes, rangesPerFile).start(),
                filesInFlight);
    }

    /**
     * Downloads every object to its file, creating missing parent directories and replacing files
     * that exist. Blocks until all are done. Each request is retried inside the client that sends it.
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
        return fileDownload.start(file.source(), file.target());
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
