package dev.flinks3.transfer.bulk;

import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.SlidingWindow;
import dev.flinks3.transfer.read.ReadPolicy;
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
 * files with ranged GETs through the {@link ObjectClient} ({@link RangedFileDownload}). A copy of fewer files
 * than {@code getsInFlight} splits each into ranges of {@code rangeBytes} on parallel lanes that fill the GETs
 * the files leave free. A copy of at least that many files fetches each file's first {@code rangeBytes} with one
 * GET and lets that GET's rate decide the rest: on a fast connection (a server on the same LAN, at least {@link
 * dev.flinks3.transfer.read.ReadPolicy#FAST_CONNECTION_BYTES_PER_SECOND} bytes/s) one GET for the rest of the file
 * (ranges of up to {@value #SINGLE_LANE_RANGE_BYTES} bytes), as one connection carries a whole file at the rate
 * of many and every GET costs the client and the server a request's work; on a slower one (S3 gives 50 to 90 MB/s
 * per connection) ranges of {@code rangeBytes} on {@code maxLanesPerFile} lanes, so the copy has enough GETs in
 * flight to fill the link. On the CRT-based S3 client a file is one Transfer Manager {@code downloadFile} instead
 * (the {@code crt} package's {@code TransferManagerDownload}).
 *
 * <p>Thread-safe; each {@link #download} call is independent.
 */
public final class BulkDownloader {

    /**
     * Bytes one ranged GET asks for after a file's first on a fast connection (a copy of at least {@code
     * getsInFlight} files): 64 MiB, so most state files take two GETs.
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
     * A bulk downloader of ranged GETs through {@code client}: at most {@code getsInFlight} files at once. A copy of
     * {@code n} files gives each file {@code min(maxLanesPerFile, max(1, getsInFlight / n))} lanes of ranges of
     * {@code rangeBytes}; a file with one lane (a copy of at least {@code getsInFlight} files) gets its lanes from
     * the rate of its first GET (see the class notes): one more GET on a fast connection, {@code maxLanesPerFile}
     * lanes on a slow one.
     *
     * @param client the client to download with; not owned
     * @param getsInFlight most files at once, and the GETs in flight they share on a fast connection, at least 1
     * @param rangeBytes bytes per ranged GET of a file with more than one lane, and of each file's first GET, at
     *     least 1
     * @param maxLanesPerFile most ranged GETs of one file in flight at once, at least 1
     * @throws IllegalArgumentException if a count or size is below 1
     */
    public static BulkDownloader ranged(ObjectClient client, int getsInFlight, long rangeBytes, int maxLanesPerFile) {
        return ranged(
                client,
                getsInFlight,
                rangeBytes,
                maxLanesPerFile,
                SINGLE_LANE_RANGE_BYTES,
                ReadPolicy.FAST_CONNECTION_BYTES_PER_SECOND);
    }

    /** {@link #ranged(ObjectClient, int, long, int)} with the single-lane range size given, for tests. */
    static BulkDownloader ranged(
            ObjectClient client, int getsInFlight, long rangeBytes, int maxLanesPerFile, long singleLaneRangeBytes) {
        return ranged(
                client,
                getsInFlight,
                rangeBytes,
                maxLanesPerFile,
                singleLaneRangeBytes,
                ReadPolicy.FAST_CONNECTION_BYTES_PER_SECOND);
    }

    /**
     * As {@link #ranged(ObjectClient, int, long, int, long)}, with the rate (bytes/s) of a first GET at and above
     * which a file of a large copy takes one more GET ({@code 0}: always; {@link Long#MAX_VALUE}: never), for tests.
     */
    static BulkDownloader ranged(
            ObjectClient client,
            int getsInFlight,
            long rangeBytes,
            int maxLanesPerFile,
            long singleLaneRangeBytes,
            long fastBytesPerSecond) {
        if (getsInFlight < 1 || rangeBytes < 1 || maxLanesPerFile < 1 || singleLaneRangeBytes < 1) {
            throw new IllegalArgumentException("GETs in flight (" + getsInFlight + "), range size (" + rangeBytes
                    + " bytes) and lanes per file (" + maxLanesPerFile + ") must all be at least 1");
        }
        Objects.requireNonNull(client, "client");
        return new BulkDownloader(
                files -> {
                    int lanes = lanesPerFile(getsInFlight, files, maxLanesPerFile);
                    RangedFileDownload.Plan plan = lanes > 1
                            ? RangedFileDownload.Plan.fixed(rangeBytes, lanes)
                            : RangedFileDownload.Plan.byFirstGet(
                                    rangeBytes,
                                    Math.max(rangeBytes, singleLaneRangeBytes),
                                    maxLanesPerFile,
                                    fastBytesPerSecond);
                    return (source, target) -> new RangedFileDownload(client, source, target, plan).start();
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
