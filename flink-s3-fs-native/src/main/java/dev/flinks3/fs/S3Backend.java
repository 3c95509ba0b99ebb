package dev.flinks3.fs;

import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3ClientOwner;
import dev.flinks3.transfer.read.ReadAheadBudget;
import dev.flinks3.transfer.read.ReadAheadWorkers;
import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What all filesystems of one factory configuration share, and the one owner of it: the S3 clients
 * ({@link S3ClientOwner}), the {@link UploadEngine} with its process-wide buffer budget, and the threads
 * that run parallel read-ahead GETs. {@link #close()} releases them in reverse order of creation.
 * Thread-safe.
 */
final class S3Backend implements Closeable {

    private final S3FileSystemSettings settings;
    private final S3ClientOwner owner;
    private final UploadEngine uploads;
    private final ThreadPoolExecutor readAhead;
    private final ReadAheadWorkers readAheadWorkers;

    /**
     * Builds the clients and threads.
     *
     * @throws IllegalArgumentException or {@code SdkException} if the S3 client cannot be built from the
     *     settings (an unknown credentials provider class, for example)
     */
    S3Backend(S3FileSystemSettings settings) {
        this.settings = settings;
        this.owner = new S3ClientOwner(settings.s3());
        this.uploads = new UploadEngine(owner.objectClient(), settings.s3());
        this.readAhead = readAheadExecutor(settings.s3().maxConnections());
        this.readAheadWorkers =
                new ReadAheadWorkers(readAhead, new ReadAheadBudget(readAheadLimit(Runtime.getRuntime().maxMemory())));
    }

    ObjectClient objectClient() {
        return owner.objectClient();
    }

    UploadEngine uploads() {
        return uploads;
    }

    BulkCopy bulkCopy() {
        return owner.bulkDownloader()::download;
    }

    /** The read-ahead threads and the budget of their windows, shared by the streams of this backend. */
    ReadAheadWorkers readAhead() {
        return readAheadWorkers;
    }

    /**
     * The bytes all read-ahead windows may hold together: 1 GiB or a quarter of the JVM's maximum
     * heap, whichever is smaller (the rule of the upload buffers' default limit).
     *
     * @param maxHeap the JVM's maximum heap in bytes ({@link Runtime#maxMemory()})
     */
    static long readAheadLimit(long maxHeap) {
        return Math.min(1L << 30, maxHeap / 4);
    }

    /**
     * Stops the read-ahead threads (waiting up to {@code s3.close.timeout} for running GETs) and closes
     * the S3 clients. Requests still in flight fail.
     */
    @Override
    public void close() throws IOException {
        readAhead.shutdown();
        try {
            if (!readAhead.awaitTermination(settings.closeTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                readAhead.shutdownNow();
            }
        } catch (InterruptedException e) {
            readAhead.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            owner.close();
        }
    }

    /**
     * Each read-ahead GET blocks a thread while its chunk transfers, and no more GETs can run than there
     * are connections, so the pool has as many threads as the client has connections; idle threads end
     * after a minute.
     */
    private static ThreadPoolExecutor readAheadExecutor(int threads) {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, "flinks3-read-ahead-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        ThreadPoolExecutor executor = new ThreadPoolExecutor(
                threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    @Override
    public String toString() {
        return owner.toString();
    }
}
