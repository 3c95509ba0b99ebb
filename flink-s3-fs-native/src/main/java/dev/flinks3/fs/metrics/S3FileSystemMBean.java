package dev.flinks3.fs.metrics;

/**
 * The metrics of one S3 client owner of the plugin (one per filesystem configuration and scheme), as a
 * platform MBean named {@code dev.flinks3:type=S3FileSystem,scheme=<s3|s3a>,endpoint=<host_port>}
 * (see {@link MetricsBeans}). Counters count from the owner's creation and only grow; gauges say what
 * is held now. Attributes are plain numbers, so {@code jconsole}, Flink's JMX port and the Prometheus
 * JMX exporter read them without any class of the plugin.
 *
 * <p>The request counts are those of the AWS SDK's published metrics and of the plugin's retry strategy;
 * per S3 operation, with latency, they are in the {@link S3OperationMBean}s of the same owner.
 */
public interface S3FileSystemMBean {

    /** S3 requests (API calls) finished, successful or not. */
    long getRequests();

    /** Requests that failed after all their attempts. */
    long getFailedRequests();

    /** HTTP attempts of all requests. */
    long getAttempts();

    /** Attempts after the first of each request. */
    long getRetries();

    /** Attempts answered with throttling (503 SlowDown, 429 and the other throttling codes). */
    long getThrottledAttempts();

    /** Attempts answered with another S3 error (5xx, and the 4xx that end a request). */
    long getErrorAnswerAttempts();

    /** Attempts that got no usable answer: the connection failed, broke or closed early. */
    long getConnectionFailedAttempts();

    /** Attempts abandoned at the per-attempt timeout ({@code s3.request.attempt-timeout}). */
    long getTimedOutAttempts();

    /** Bytes uploaded successfully, in parts and single PutObjects. */
    long getBytesUploaded();

    /** Bytes of object bodies received by GetObject requests. */
    long getBytesDownloaded();

    /** Parts uploaded successfully. */
    long getPartsUploaded();

    /** UploadPart requests sent and not yet answered (gauge). */
    int getPartsInFlight();

    /** Objects written with one PutObject (streams closed before their first part filled). */
    long getObjectsPut();

    /** Multipart uploads started (CreateMultipartUpload). */
    long getMultipartUploadsStarted();

    /** Multipart uploads completed. */
    long getMultipartUploadsCompleted();

    /** Multipart uploads aborted after a failure or cancellation. */
    long getMultipartUploadsAborted();

    /** Uploads of {@code create()} streams that the S3 Transfer Manager reported started ({@code s3.client: crt}). */
    long getTransferManagerUploadsStarted();

    /**
     * Uploads of {@code create()} streams that the S3 Transfer Manager ran and reported complete
     * ({@code s3.client: crt}); counted in {@link #getMultipartUploadsCompleted()} too.
     */
    long getTransferManagerUploadsCompleted();

    /** Bytes held in part buffers now, being filled or uploaded (gauge). */
    long getBufferedBytes();

    /** The most bytes ever held in part buffers at once. */
    long getPeakBufferedBytes();

    /** The bound on bytes in part buffers, {@code s3.upload.max-buffered-size}. */
    long getBufferLimitBytes();

    /** Bytes of read-ahead windows held by sequential readers now (gauge). */
    long getReadAheadBytes();

    /** The most bytes of read-ahead windows ever held at once. */
    long getPeakReadAheadBytes();

    /** The bound on bytes of read-ahead windows. */
    long getReadAheadLimitBytes();

    /** Time writers were blocked by back-pressure (part permits or buffer bytes), summed over writers, in ms. */
    long getBackPressureBlockedMillis();
}
