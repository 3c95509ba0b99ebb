package dev.flinks3.transfer.sdk;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.http.HttpMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.SdkMetric;

/**
 * What the requests of one S3 operation (e.g. {@code UploadPart}) went through: requests (API calls),
 * their HTTP attempts and retries, failed attempts by the class the AWS SDK gives them ({@link
 * CoreMetric#ERROR_TYPE}: throttling, other error answer, configured timeout, I/O, other), the latency
 * of whole requests as a {@link LatencyHistogram} with fixed buckets, and where the attempts' time went:
 * waiting for a pooled connection ({@link HttpMetric#CONCURRENCY_ACQUIRE_DURATION}), from sending to the
 * answer's first byte ({@link CoreMetric#TIME_TO_FIRST_BYTE}) and from there to its last ({@link
 * CoreMetric#TIME_TO_LAST_BYTE}), each as a total with the count of attempts it covers (a rate of one over
 * the rate of the other is the mean, over any window and any number of processes).
 *
 * <p>Counted from the metric collection the SDK publishes after each call; adding to counters allocates
 * nothing. Thread-safe.
 */
public final class OperationMetrics {

    private static final String ATTEMPT = "ApiCallAttempt";

    private final String operation;
    private final LongAdder requests = new LongAdder();
    private final LongAdder failedRequests = new LongAdder();
    private final LongAdder attempts = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder throttledAttempts = new LongAdder();
    private final LongAdder errorAnswerAttempts = new LongAdder();
    private final LongAdder timedOutAttempts = new LongAdder();
    private final LongAdder ioErrorAttempts = new LongAdder();
    private final LongAdder otherErrorAttempts = new LongAdder();
    private final LatencyHistogram latency = new LatencyHistogram();
    private final LongAdder connectionWaitNanos = new LongAdder();
    private final LongAdder connectionWaits = new LongAdder();
    private final LongAdder firstByteNanos = new LongAdder();
    private final LongAdder firstBytes = new LongAdder();
    private final LongAdder bodyNanos = new LongAdder();
    private final LongAdder bodies = new LongAdder();

    OperationMetrics(String operation) {
        this.operation = operation;
    }

    /** Counts one finished API call of this operation. */
    void record(MetricCollection apiCall) {
        requests.increment();
        if (apiCall.metricValues(CoreMetric.API_CALL_SUCCESSFUL).contains(Boolean.FALSE)) {
            failedRequests.increment();
        }
        for (Integer count : apiCall.metricValues(CoreMetric.RETRY_COUNT)) {
            retries.add(count);
        }
        for (MetricCollection child : apiCall.children()) {
            if (ATTEMPT.equals(child.name())) {
                attempts.increment();
                countError(child.metricValues(CoreMetric.ERROR_TYPE));
                countTimes(child);
            }
        }
        List<Duration> durations = apiCall.metricValues(CoreMetric.API_CALL_DURATION);
        if (!durations.isEmpty()) {
            latency.record(durations.get(0).toNanos());
        }
    }

    /**
     * Counts one call sent without the SDK's pipeline that succeeded in one attempt ({@link DirectRangedGet}).
     *
     * @param nanos from signing to the body's last byte, ns
     * @param firstByteNanos from signing to the answer's headers, ns
     * @param bodyNanos from the headers to the body's last byte, ns; negative for a body the caller streams
     */
    void recordDirect(long nanos, long firstByteNanos, long bodyNanos) {
        requests.increment();
        attempts.increment();
        firstByteNanos(firstByteNanos);
        if (bodyNanos >= 0) {
            bodyNanos(bodyNanos);
        }
        latency.record(nanos);
    }

    /** Counts one attempt sent without the SDK's pipeline that got no usable answer (the SDK's call follows). */
    void recordDirectFailure(S3RetryStrategy.Failure failure) {
        attempts.increment();
        switch (failure) {
            case THROTTLED:
                throttledAttempts.increment();
                break;
            case ERROR_ANSWER:
                errorAnswerAttempts.increment();
                break;
            case TIMED_OUT:
                timedOutAttempts.increment();
                break;
            default:
                ioErrorAttempts.increment();
        }
    }

    private void firstByteNanos(long nanos) {
        firstByteNanos.add(nanos);
        firstBytes.increment();
    }

    private void bodyNanos(long nanos) {
        bodyNanos.add(nanos);
        bodies.increment();
    }

    /** Adds an attempt's connection wait, time to first byte and body time (last byte after the first). */
    private void countTimes(MetricCollection attempt) {
        Duration wait = first(attempt, HttpMetric.CONCURRENCY_ACQUIRE_DURATION);
        if (wait != null) {
            connectionWaitNanos.add(wait.toNanos());
            connectionWaits.increment();
        }
        Duration firstByte = first(attempt, CoreMetric.TIME_TO_FIRST_BYTE);
        if (firstByte != null) {
            firstByteNanos(firstByte.toNanos());
            Duration lastByte = first(attempt, CoreMetric.TIME_TO_LAST_BYTE);
            if (lastByte != null && lastByte.compareTo(firstByte) >= 0) {
                bodyNanos(lastByte.minus(firstByte).toNanos());
            }
        }
    }

    private static <T> T first(MetricCollection collection, SdkMetric<T> metric) {
        return HttpPoolMetrics.first(collection, metric);
    }

    private void countError(List<String> errorTypes) {
        if (errorTypes.isEmpty()) {
            return;
        }
        // The SDK's SdkErrorType names (an internal enum, so matched by its published strings).
        switch (errorTypes.get(0)) {
            case "Throttling":
                throttledAttempts.increment();
                break;
            case "ServerError": // every error answer of the service that is not throttling, 4xx as well as 5xx
                errorAnswerAttempts.increment();
                break;
            case "ConfiguredTimeout":
                timedOutAttempts.increment();
                break;
            case "IO":
                ioErrorAttempts.increment();
                break;
            default:
                otherErrorAttempts.increment();
        }
    }

    /** The S3 operation's name as the SDK reports it, e.g. {@code UploadPart}. */
    public String operation() {
        return operation;
    }

    /** API calls finished, successful or not. */
    public long requests() {
        return requests.sum();
    }

    /** API calls that failed after all their attempts. */
    public long failedRequests() {
        return failedRequests.sum();
    }

    /** HTTP attempts. */
    public long attempts() {
        return attempts.sum();
    }

    /** Attempts after the first of each API call. */
    public long retries() {
        return retries.sum();
    }

    /** Attempts answered with throttling (503 SlowDown, 429 and the other throttling codes). */
    public long throttledAttempts() {
        return throttledAttempts.sum();
    }

    /** Attempts answered with an S3 error other than throttling: 5xx, and 4xx such as 403, 404 or 412. */
    public long errorAnswerAttempts() {
        return errorAnswerAttempts.sum();
    }

    /** Attempts abandoned at the per-attempt or per-request timeout. */
    public long timedOutAttempts() {
        return timedOutAttempts.sum();
    }

    /** Attempts that failed on the connection (I/O errors, resets, early close). */
    public long ioErrorAttempts() {
        return ioErrorAttempts.sum();
    }

    /** Attempts that failed in the client otherwise (no answer and no I/O error or timeout). */
    public long otherErrorAttempts() {
        return otherErrorAttempts.sum();
    }

    /** Time attempts waited for a pooled HTTP connection, summed, in ns. */
    public long connectionWaitNanos() {
        return connectionWaitNanos.sum();
    }

    /** Attempts whose connection wait the HTTP client reported (those in {@link #connectionWaitNanos()}). */
    public long connectionWaits() {
        return connectionWaits.sum();
    }

    /**
     * Time from attempts' start to the first byte of their answer (request written, the server's work, the
     * network both ways), summed, in ns.
     */
    public long timeToFirstByteNanos() {
        return firstByteNanos.sum();
    }

    /** Answers whose first byte was timed (those in {@link #timeToFirstByteNanos()}). */
    public long firstBytes() {
        return firstBytes.sum();
    }

    /** Time from answers' first byte to their last (the bodies' transfer), summed, in ns. */
    public long bodyNanos() {
        return bodyNanos.sum();
    }

    /** Answers whose body was timed (those in {@link #bodyNanos()}). */
    public long bodies() {
        return bodies.sum();
    }

    private static long mean(LongAdder total, LongAdder count) {
        long n = count.sum();
        return n == 0 ? 0 : total.sum() / n;
    }

    /** Latency of whole requests (all attempts and backoffs), from the start. */
    public LatencyHistogram.Snapshot latency() {
        return latency.snapshot();
    }

    @Override
    public String toString() {
        return operation + ": " + requests() + " requests (" + failedRequests() + " failed), " + attempts()
                + " attempts, " + retries() + " retries, throttled " + throttledAttempts() + ", error answers "
                + errorAnswerAttempts() + ", timeouts " + timedOutAttempts() + ", I/O errors " + ioErrorAttempts()
                + ", other errors " + otherErrorAttempts() + ", latency " + latency() + ", mean connection wait "
                + mean(connectionWaitNanos, connectionWaits) / 1000 + " us, first byte "
                + mean(firstByteNanos, firstBytes) / 1000 + " us, body " + mean(bodyNanos, bodies) / 1000 + " us";
    }
}
