package dev.flinks3.fs.metrics;

/**
 * The metrics of one S3 client owner of the plugin (one per filesystem configuration and scheme), as a
 * platform MBean named {@code dev.flinks3:type=S3FileSystem,scheme=<s3|s3a>,endpoint=<host_port>}
 * (see {@link MetricsBeans}). Attributes are plain numbers, so {@code jconsole}, Flink's JMX port and the
 * Prometheus JMX exporter read them without any class of the plugin; they are named as Prometheus expects
 * their metrics: counters end in {@code Total}, count from the owner's creation and only grow; times are in
 * seconds and sizes in bytes; the others are gauges (what is held now, or a peak or bound).
 *
 * <p>The request counts are those of the AWS SDK's published metrics and of the plugin's retry strategy;
 * per S3 operation, with latency, they are in the {@code S3Operation} MBeans of the same owner, and the HTTP
 * connection pools in its {@code HttpPool} MBeans.
 */
public interface S3FileSystemMBean {

    /** S3 requests (API calls) finished, successful or not. */
    long getRequestsTotal();

    /** Requests that failed after all their attempts. */
    long getFailedRequestsTotal();

    /** HTTP attempts of all requests. */
    long getAttemptsTotal();

    /** Attempts after the first of each request. */
    long getRetriesTotal();

    /** Attempts answered with throttling (503 SlowDown, 429 and the other throttling codes). */
    long getThrottledAttemptsTotal();

    /** Attempts answered with another S3 error (5xx, and the 4xx that end a request). */
    long getErrorAnswerAttemptsTotal();

    /** Attempts that got no usable answer: the connection failed, broke or closed early. */
    long getConnectionFailedAttemptsTotal();

    /** Attempts abandoned at the per-attempt timeout ({@code s3.request.attempt-timeout}). */
    long getTimedOutAttemptsTotal();

    /** Bytes uploaded successfully, in parts and single PutObjects. */
    long getUploadedBytesTotal();

    /** Bytes of object bodies received by GetObject requests. */
    long getDownloadedBytesTotal();

    /** Parts uploaded successfully. */
    long getPartsUploadedTotal();

    /** UploadPart requests sent and not yet answered (gauge). */
    int getPartsInFlight();

    /** Objects written with one PutObject (streams closed before their first part filled). */
    long getObjectsPutTotal();

    /** Multipart uploads started (CreateMultipartUpload). */
    long getMultipartUploadsStartedTotal();

    /** Multipart uploads completed. */
    long getMultipartUploadsCompletedTotal();

    /** Multipart uploads aborted after a failure or cancellation. */
    long getMultipartUploadsAbortedTotal();

    /**
     * Multipart uploads this process started and must still complete or abort (gauge): those of the streams
     * being written that no checkpoint references yet. It returns to its level when streams end; a rise that
     * stays is an upload the plugin lost track of. Uploads handed to a checkpoint are not among them.
     */
    long getMultipartUploadsOpen();

    /**
     * Multipart uploads this process started and handed to a checkpoint's state (a recoverable stream's
     * {@code persist()} or {@code closeForCommit()}): from then on Flink's committer completes them, and one
     * referenced only by a checkpoint that never completed stays open at the server for the bucket's
     * lifecycle rule.
     */
    long getMultipartUploadsPersistedTotal();

    /** Uploads of {@code create()} streams that the S3 Transfer Manager reported started ({@code s3.client: crt}). */
    long getTransferManagerUploadsStartedTotal();

    /**
     * Uploads of {@code create()} streams that the S3 Transfer Manager ran and reported complete
     * ({@code s3.client: crt}); counted in {@link #getMultipartUploadsCompletedTotal()} too.
     */
    long getTransferManagerUploadsCompletedTotal();

    /** Bytes held in part buffers now, being filled or uploaded (gauge). */
    long getBufferedBytes();

    /** The most bytes ever held in part buffers at once (gauge). */
    long getPeakBufferedBytes();

    /** The bound on bytes in part buffers, {@code s3.upload.max-buffered-size} (gauge). */
    long getBufferLimitBytes();

    /** Bytes of read-ahead windows held by sequential readers now (gauge). */
    long getReadAheadBytes();

    /** The most bytes of read-ahead windows ever held at once (gauge). */
    long getPeakReadAheadBytes();

    /** The bound on bytes of read-ahead windows (gauge). */
    long getReadAheadLimitBytes();

    /** Time writers were blocked by back-pressure (part permits or buffer bytes), summed over writers, in s. */
    double getBackPressureBlockedSecondsTotal();
}
