package dev.flinks3.fs;

import dev.flinks3.fs.metrics.MetricsBeans;
import dev.flinks3.fs.metrics.MetricsSummaryLog;
import dev.flinks3.fs.metrics.S3FileSystemMetrics;
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
 * ({@link S3ClientOwner}), the {@link UploadEngine} with its process-wide buffer budget, the threads
 * that run parallel read-ahead GETs, and the metrics of all three (platform MBeans, {@link MetricsBeans},
 * and a periodic summary line, {@link MetricsSummaryLog}). {@link #close()} releases them in reverse
 * order of creation. Thread-safe.
 */
final class S3Backend implements Closeable {

    private final S3FileSystemSettings settings;
    private final S3ClientOwner owner;
    private final UploadEngine uploads;
    private final ThreadPoolExecutor readAhead;
    private final ReadAheadWorkers readAheadWorkers;
    private final S3FileSystemMetrics metrics;
    private final MetricsBeans beans;
    private final MetricsSummaryLog summaryLog;

    /**
     * Builds the clients and threads and registers the metrics MBeans.
     *
     * @param scheme the scheme the filesystems serve ({@code s3}, {@code s3a}), a key of the MBeans' names
     * @throws IllegalArgumentException or {@code SdkException} if the S3 client cannot be built from the
     *     settings (an unknown credentials provider class, for example)
     */
    S3Backend(S3FileSystemSettings settings, String scheme) {
        this.settings = settings;
        this.owner = new S3ClientOwner(settings.s3());
        this.uploads = new UploadEngine(owner.objectClient(), settings.s3());
        this.readAhead = readAheadExecutor(settings.s3().maxConnections());
        this.readAheadWorkers =
                new ReadAheadWorkers(readAhead, new ReadAheadBudget(readAheadLimit(Runtime.getRuntime().maxMemory())));
        this.metrics = new S3FileSystemMetrics(owner.requestMetrics(), uploads.metrics(), readAheadWorkers.budget());
        String endpoint = MetricsBeans.endpointKey(settings.s3().endpoint(), owner.region().id());
        this.beans = MetricsBeans.register(scheme, endpoint, metrics);
        this.summaryLog = MetricsSummaryLog.start(scheme + ":// on " + endpoint, metrics, settings.metricsLogInterval());
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

    /** What the clients, uploads and read-ahead windows have done; readable also after {@link #close()}. */
    S3FileSystemMetrics metrics() {
        return metrics;
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
     * the S3 clients, then logs the last summary line and unregisters the MBeans. Requests still in
     * flight fail.
     */
    @Override
    public void close() throws IOException {
        try {
            closeClients();
        } finally {
            summaryLog.close();
            beans.close();
        }
    }

    private void closeClients() throws IOException {
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
        return owner + ", metrics MBean " + beans.fileSystemName();
    }
}
