package dev.flinks3.fs;

import dev.flinks3.fs.metrics.MetricsBeans;
import dev.flinks3.fs.metrics.MetricsSummaryLog;
import dev.flinks3.fs.metrics.S3FileSystemMetrics;
import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.multipart.crt.TransferManagerUploads;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.read.ReadAheadBudget;
import dev.flinks3.transfer.sdk.S3ClientOwner;
import java.io.Closeable;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What all filesystems of one factory configuration share, and the one owner of it: the S3 clients
 * ({@link S3ClientOwner}, which also owns the budget of read-ahead windows), the {@link UploadEngine} with its
 * process-wide buffer budget, and the metrics of all three (platform MBeans, {@link MetricsBeans}, and a periodic
 * summary line, {@link MetricsSummaryLog}). {@link #close()} lets running uploads finish, then closes the
 * clients, logs the last summary line and unregisters the MBeans. Thread-safe.
 */
final class S3Backend implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(S3Backend.class);

    private final S3FileSystemSettings settings;
    private final S3ClientOwner owner;
    /** How long closing waits for the aborts of uploads still running after {@code s3.close.timeout}, in ms. */
    static final long ABORT_WAIT_MS = 5_000;

    private final UploadEngine uploads;
    private final TransferManagerUploads transferManagerUploads;
    private final MetricsBeans beans;
    private final MetricsSummaryLog summaryLog;

    /**
     * Builds the clients and registers the metrics MBeans.
     *
     * @param scheme the scheme the filesystems serve ({@code s3}, {@code s3a}), a key of the MBeans' names
     * @throws IllegalArgumentException or {@code SdkException} if the S3 client cannot be built from the
     *     settings (an unknown credentials provider class, for example)
     */
    S3Backend(S3FileSystemSettings settings, String scheme) {
        this.settings = settings;
        this.owner = new S3ClientOwner(settings.s3());
        this.uploads = new UploadEngine(owner.objectClient(), settings.s3().upload());
        this.transferManagerUploads = owner.transferManager() == null
                ? null
                : new TransferManagerUploads(owner.transferManager(), uploads, owner.objectClient(), settings.s3());
        S3FileSystemMetrics metrics =
                new S3FileSystemMetrics(owner.requestMetrics(), uploads.metrics(), owner.readAheadBudget());
        String endpoint = MetricsBeans.endpointKey(
                settings.s3().client().endpoint(), owner.region().id());
        this.beans = MetricsBeans.register(scheme, endpoint, metrics);
        this.summaryLog =
                MetricsSummaryLog.start(scheme + ":// on " + endpoint, metrics, settings.metricsLogInterval());
    }

    ObjectClient objectClient() {
        return owner.objectClient();
    }

    UploadEngine uploads() {
        return uploads;
    }

    /** With {@code s3.client: crt}, the Transfer Manager's uploads of {@code create()} streams; else {@code null}. */
    TransferManagerUploads transferManagerUploads() {
        return transferManagerUploads;
    }

    BulkCopy bulkCopy() {
        return owner.bulkDownloader()::download;
    }

    /** The budget of read-ahead windows, shared by the streams of this backend; the client owner's. */
    ReadAheadBudget readAhead() {
        return owner.readAheadBudget();
    }

    /**
     * Waits up to {@code s3.close.timeout} for parts still uploading; if some still are, cancels them and
     * aborts their multipart uploads (waiting up to {@value #ABORT_WAIT_MS} ms), so the failed streams leave
     * nothing at the server. Then closes the S3 clients (requests still in flight fail), logs the last
     * summary line and unregisters the MBeans.
     */
    @Override
    public void close() throws IOException {
        try {
            long waitMs = settings.closeTimeout().toMillis();
            if (!uploads.budget().awaitNothingInFlight(waitMs)) {
                LOG.warn(
                        "Closing the S3 filesystem ({}) after waiting {} ms (s3.close.timeout) with {} bytes of parts"
                                + " still uploading; those uploads fail and are aborted",
                        owner,
                        waitMs,
                        uploads.budget().inFlightBytes());
                int notAborted = uploads.abortOpenUploads(ABORT_WAIT_MS);
                if (notAborted > 0) {
                    LOG.warn(
                            "{} multipart uploads of the S3 filesystem ({}) could not be aborted while it closed;"
                                    + " a bucket lifecycle rule for incomplete multipart uploads removes them",
                            notAborted,
                            owner);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                owner.close();
            } finally {
                summaryLog.close();
                beans.close();
            }
        }
    }

    @Override
    public String toString() {
        return owner + ", metrics MBean " + beans.fileSystemName();
    }
}
