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
import java.util.function.IntFunction;

/**
 * Copies many objects to local files: what Flink's {@code PathsCopyingFileSystem} asks for when
 * RocksDB restores its files. At most {@code filesInFlight} files download at once and the next one
 * starts as soon as any one finishes; each file is one {@link FileDownload}. {@link #ranged} fetches
 * files with ranged GETs through the {@link ObjectClient} ({@link RangedFileDownload}), at most {@code
 * getsInFlight} at once for one copy: a copy of at least that many files fetches each file with one GET
 * (ranges of up to {@value #SINGLE_LANE_RANGE_BYTES} bytes), and a copy of fewer files splits each into
 * ranges of {@code rangeBytes} on parallel lanes that fill the GETs the files leave free. Every GET costs
 * the client and the server a request's work, and one connection of a fast network carries a whole file
 * at the rate of many; on a network that limits each connection, the {@code getsInFlight} connections
 * of a large copy still run in parallel. On the CRT-based S3 client a file is one Transfer Manager
 * {@code downloadFile} instead (the {@code crt} package's {@code TransferManagerDownload}).
 *
 * <p>Thread-safe; each {@link #download} call is independent.
 */
public final class BulkDownloader {

    /**
     * Bytes one ranged GET asks for when a file has one lane (a copy of at least {@code getsInFlight}
     * files): 64 MiB, the largest range a sequential reader's streamed GETs grow to.
     */
    public static final long SINGLE_LANE_RANGE_BYTES = 64L * 1024 * 1024;

    /** The download of each file, for a copy of the given number of files. */
    private final IntFunction<FileDownload> plan;

    private final int filesInFlight;

    /**
     * @param fileDownload copies each file
     * @param filesInFlight most files downloading at once, at least 1
     */
    public BulkDownloader(FileDownload fileDownload, int filesInFlight) {
        if (filesInFlight < 1) {
            throw new IllegalArgumentException("files in flight (" + filesInFlight + ") must be at least 1");
        }
        Objects.requireNonNull(fileDownload, "fileDownload");
        this.plan = files -> fileDownload;
        this.filesInFlight = filesInFlight;
    }

    private BulkDownloader(IntFunction<FileDownload> plan, int filesInFlight) {
        this.plan = plan;
        this.filesInFlight = filesInFlight;
    }

    /**
     * A bulk downloader of ranged GETs through {@code client}: at most {@code getsInFlight} files and
     * {@code getsInFlight} GETs at once. A copy of {@code n} files gives each file {@code
     * min(maxLanesPerFile, max(1, getsInFlight / n))} lanes; a file with one lane is fetched in ranges of
     * {@code max(rangeBytes, }{@value #SINGLE_LANE_RANGE_BYTES}{@code )} bytes (one GET for most state
     * files), a file with more in ranges of {@code rangeBytes}.
     *
     * @param client the client to download with; not owned
     * @param getsInFlight most files and most ranged GETs of one copy in flight at once, at least 1
     * @param rangeBytes bytes per ranged GET of a file with more than one lane, at least 1
     * @param maxLanesPerFile most ranged GETs of one file in flight at once, at least 1
     * @throws IllegalArgumentException if a count or size is below 1
     */
    public static BulkDownloader ranged(ObjectClient client, int getsInFlight, long rangeBytes, int maxLanesPerFile) {
        return ranged(client, getsInFlight, rangeBytes, maxLanesPerFile, SINGLE_LANE_RANGE_BYTES);
    }

    /** {@link #ranged(ObjectClient, int, long, int)} with the single-lane range size given, for tests. */
    static BulkDownloader ranged(
            ObjectClient client, int getsInFlight, long rangeBytes, int maxLanesPerFile, long singleLaneRangeBytes) {
        if (getsInFlight < 1 || rangeBytes < 1 || maxLanesPerFile < 1 || singleLaneRangeBytes < 1) {
            throw new IllegalArgumentException("GETs in flight (" + getsInFlight + "), range size (" + rangeBytes
                    + " bytes) and lanes per file (" + maxLanesPerFile + ") must all be at least 1");
        }
        Objects.requireNonNull(client, "client");
        return new BulkDownloader(
                files -> {
                    int lanes = lanesPerFile(getsInFlight, files, maxLanesPerFile);
                    long bytesPerGet = lanes == 1 ? Math.max(rangeBytes, singleLaneRangeBytes) : rangeBytes;
                    return (source, target) ->
                            new RangedFileDownload(client, source, target, bytesPerGet, lanes).start();
                },
                getsInFlight);
    }

    /**
     * Parallel ranged GETs per file for a copy of {@code files} files: the GETs in flight shared out
     * among the files downloading at once, from 1 to {@code maxLanesPerFile}.
     */
    static int lanesPerFile(int getsInFlight, int files, int maxLanesPerFile) {
        int filesAtOnce = Math.max(1, Math.min(files, getsInFlight));
        return Math.max(1, Math.min(maxLanesPerFile, getsInFlight / filesAtOnce));
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
        FileDownload fileDownload = plan.apply(files.size());
        try {
            SlidingWindow.run(files, filesInFlight, file -> {
                started.add(file.target());
                return start(fileDownload, file).thenApply(done -> complete.add(file.target()));
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

    private static CompletableFuture<Void> start(FileDownload fileDownload, FileCopy file) {
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
