package dev.flinks3.fs.metrics;

/**
 * The requests of one S3 operation of one S3 client owner, as a platform MBean named {@code
 * dev.flinks3:type=S3Operation,scheme=<s3|s3a>,endpoint=<host_port>,operation=<name>}, e.g. {@code
 * operation=UploadPart} (see {@link MetricsBeans}). Failed attempts are split by the class the AWS SDK
 * gives them. Latency is that of whole requests (all attempts and backoffs) that finished in the last
 * minute, at most the last 1,024 of them.
 */
public interface S3OperationMBean {

    /** Requests (API calls) finished, successful or not. */
    long getRequests();

    /** Requests that failed after all their attempts. */
    long getFailedRequests();

    /** HTTP attempts. */
    long getAttempts();

    /** Attempts after the first of each request. */
    long getRetries();

    /** Attempts answered with throttling (503 SlowDown, 429, ...). */
    long getThrottledAttempts();

    /** Attempts answered with an S3 error other than throttling: 5xx, and 4xx such as 403, 404 or 412. */
    long getErrorAnswerAttempts();

    /** Attempts abandoned at a configured timeout. */
    long getTimedOutAttempts();

    /** Attempts that failed on the connection. */
    long getIoErrorAttempts();

    /** Attempts that failed in the client otherwise (no answer, and no I/O error or timeout). */
    long getOtherErrorAttempts();

    /** Median latency in the window, in ms; 0 without requests in the window. */
    double getLatencyP50Millis();

    /** 99th percentile latency in the window, in ms; 0 without requests in the window. */
    double getLatencyP99Millis();

    /** Longest latency in the window, in ms. */
    double getLatencyMaxMillis();

    /** Requests in the latency window. */
    int getLatencySamples();

    /** Mean time an attempt waited for a pooled HTTP connection since start, in ms. */
    double getMeanConnectionWaitMillis();

    /** Mean time from an attempt's start to the first byte of its answer since start, in ms. */
    double getMeanTimeToFirstByteMillis();

    /** Mean time from an answer's first byte to its last (the body) since start, in ms. */
    double getMeanBodyMillis();
}
