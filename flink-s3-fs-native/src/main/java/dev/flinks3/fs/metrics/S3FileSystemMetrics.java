package dev.flinks3.fs.metrics;

import dev.flinks3.multipart.UploadMetrics;
import dev.flinks3.transfer.read.ReadAheadBudget;
import dev.flinks3.transfer.sdk.S3RequestMetrics;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * What one S3 client owner and the upload and read-ahead engines built on it have done, read live from
 * their counters: the requests of the {@link S3RequestMetrics}, the uploads of the {@link UploadMetrics}
 * and the windows of the {@link ReadAheadBudget}. Reading an attribute sums a few counters (or takes a
 * lock the writers hold only briefly); nothing here is on the data path. Thread-safe.
 */
public final class S3FileSystemMetrics implements S3FileSystemMBean {

    private static final double MIB = 1024.0 * 1024;

    private final S3RequestMetrics requests;
    private final UploadMetrics uploads;
    private final ReadAheadBudget readAhead;

    /** The metrics of one owner's parts; none is owned or closed here. */
    public S3FileSystemMetrics(S3RequestMetrics requests, UploadMetrics uploads, ReadAheadBudget readAhead) {
        this.requests = Objects.requireNonNull(requests, "requests");
        this.uploads = Objects.requireNonNull(uploads, "uploads");
        this.readAhead = Objects.requireNonNull(readAhead, "readAhead");
    }

    /** The counts per S3 operation, as read by the {@code S3Operation} MBeans. */
    S3RequestMetrics requestMetrics() {
        return requests;
    }

    @Override
    public long getRequestsTotal() {
        return requests.snapshot().requests();
    }

    @Override
    public long getFailedRequestsTotal() {
        return requests.snapshot().failedRequests();
    }

    @Override
    public long getAttemptsTotal() {
        return requests.snapshot().attempts();
    }

    @Override
    public long getRetriesTotal() {
        return requests.snapshot().retries();
    }

    @Override
    public long getThrottledAttemptsTotal() {
        return requests.snapshot().throttledAttempts();
    }

    @Override
    public long getErrorAnswerAttemptsTotal() {
        return requests.snapshot().errorAnswerAttempts();
    }

    @Override
    public long getConnectionFailedAttemptsTotal() {
        return requests.snapshot().connectionFailedAttempts();
    }

    @Override
    public long getTimedOutAttemptsTotal() {
        return requests.snapshot().timedOutAttempts();
    }

    @Override
    public long getUploadedBytesTotal() {
        return uploads.bytesUploaded();
    }

    @Override
    public long getDownloadedBytesTotal() {
        return requests.bytesDownloaded();
    }

    @Override
    public long getPartsUploadedTotal() {
        return uploads.partsUploaded();
    }

    @Override
    public int getPartsInFlight() {
        return uploads.partsInFlight();
    }

    @Override
    public long getObjectsPutTotal() {
        return uploads.objectsPut();
    }

    @Override
    public long getMultipartUploadsStartedTotal() {
        return uploads.uploadsStarted();
    }

    @Override
    public long getMultipartUploadsCompletedTotal() {
        return uploads.uploadsCompleted();
    }

    @Override
    public long getTransferManagerUploadsStartedTotal() {
        return uploads.transferManagerUploadsStarted();
    }

    @Override
    public long getTransferManagerUploadsCompletedTotal() {
        return uploads.transferManagerUploadsCompleted();
    }

    @Override
    public long getMultipartUploadsAbortedTotal() {
        return uploads.uploadsAborted();
    }

    @Override
    public long getBufferedBytes() {
        return uploads.bytesBuffered();
    }

    @Override
    public long getPeakBufferedBytes() {
        return uploads.peakBytesBuffered();
    }

    @Override
    public long getBufferLimitBytes() {
        return uploads.bufferLimitBytes();
    }

    @Override
    public long getReadAheadBytes() {
        return readAhead.heldBytes();
    }

    @Override
    public long getPeakReadAheadBytes() {
        return readAhead.peakHeldBytes();
    }

    @Override
    public long getReadAheadLimitBytes() {
        return readAhead.limitBytes();
    }

    @Override
    public long getMultipartUploadsOpen() {
        return uploads.uploadsOpen();
    }

    @Override
    public long getMultipartUploadsPersistedTotal() {
        return uploads.uploadsPersisted();
    }

    @Override
    public double getBackPressureBlockedSecondsTotal() {
        return uploads.backPressureNanos() / 1e9;
    }

    /**
     * One line for the log: requests, retries, throttled attempts, bytes up and down and the peaks of
     * buffered and read-ahead bytes, all since the owner was created.
     */
    public String summary() {
        S3RequestMetrics.Snapshot s = requests.snapshot();
        return String.format(
                Locale.ROOT,
                "%d requests (%d failed), %d retries, %d throttled, %d timed out;"
                        + " %.1f MiB uploaded, %.1f MiB downloaded; peak buffered %.1f of %.1f MiB,"
                        + " peak read-ahead %.1f of %.1f MiB; writers blocked %d ms",
                s.requests(),
                s.failedRequests(),
                s.retries(),
                s.throttledAttempts(),
                s.timedOutAttempts(),
                uploads.bytesUploaded() / MIB,
                requests.bytesDownloaded() / MIB,
                uploads.peakBytesBuffered() / MIB,
                uploads.bufferLimitBytes() / MIB,
                readAhead.peakHeldBytes() / MIB,
                readAhead.limitBytes() / MIB,
                TimeUnit.NANOSECONDS.toMillis(uploads.backPressureNanos()));
    }

    @Override
    public String toString() {
        return summary();
    }
}
