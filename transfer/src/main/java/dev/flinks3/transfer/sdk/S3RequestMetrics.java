package dev.flinks3.transfer.sdk;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;

/**
 * Counts what the S3 client's requests went through: requests (API calls) and their HTTP attempts and
 * retries per S3 operation, from the metrics the AWS SDK publishes after each call ("Java SDK metrics",
 * {@link CoreMetric}); and the failed attempts by kind (throttled, other error answer, timed out,
 * connection failure) with the backoff the retry strategy chose before each retry, split into retries
 * after throttling and after other failures, so a test can show that throttled requests wait longer
 * without measuring time. Per S3 operation it also keeps {@link OperationMetrics} (attempts by the SDK's
 * error type, latency as a histogram with fixed buckets), the HTTP clients' connection pools as they
 * reported them ({@link HttpPoolMetrics}), and it counts the bytes of object bodies received.
 *
 * <p>Registered with the client by {@link S3ClientOwner} (as metric publisher, inside the retry
 * strategy, and as the interceptor that counts body bytes); the filesystem publishes it as platform
 * MBeans. Holds counts only, never request contents or credentials. Thread-safe; the SDK's threads only
 * add to counters.
 */
public final class S3RequestMetrics implements MetricPublisher {

    private static final String ATTEMPT = "ApiCallAttempt";

    /**
     * The S3 operations this plugin sends, each counted on its own; any other is counted under
     * {@value #OTHER_OPERATION}.
     */
    public static final List<String> OPERATIONS = List.of(
            "PutObject",
            "CreateMultipartUpload",
            "UploadPart",
            "CompleteMultipartUpload",
            "AbortMultipartUpload",
            "GetObject",
            "HeadObject",
            "ListObjectsV2",
            "DeleteObject",
            "DeleteObjects",
            "CopyObject",
            "UploadPartCopy",
            "ListMultipartUploads",
            "ListParts");
    /** Name under which operations outside {@link #OPERATIONS} are counted. */
    public static final String OTHER_OPERATION = "Other";

    private final LongAdder requests = new LongAdder();
    private final LongAdder failedRequests = new LongAdder();
    private final LongAdder attempts = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final ConcurrentMap<String, LongAdder> retriesByOperation = new ConcurrentHashMap<>();
    private final Map<S3RetryStrategy.Failure, LongAdder> failedAttempts = new EnumMap<>(S3RetryStrategy.Failure.class);
    private final Backoffs afterThrottling = new Backoffs();
    private final Backoffs afterOtherFailures = new Backoffs();
    private final Map<String, OperationMetrics> operations;
    private final LongAdder bytesDownloaded = new LongAdder();
    private final HttpPoolMetrics httpPools = new HttpPoolMetrics();

    public S3RequestMetrics() {
        for (S3RetryStrategy.Failure failure : S3RetryStrategy.Failure.values()) {
            failedAttempts.put(failure, new LongAdder());
        }
        Map<String, OperationMetrics> byName = new LinkedHashMap<>();
        for (String operation : OPERATIONS) {
            byName.put(operation, new OperationMetrics(operation));
        }
        byName.put(OTHER_OPERATION, new OperationMetrics(OTHER_OPERATION));
        this.operations = Collections.unmodifiableMap(byName);
    }

    /** Counts one finished API call of the SDK: its outcome, attempts and retries. */
    @Override
    public void publish(MetricCollection apiCall) {
        requests.increment();
        if (apiCall.metricValues(CoreMetric.API_CALL_SUCCESSFUL).contains(Boolean.FALSE)) {
            failedRequests.increment();
        }
        int callRetries = apiCall.metricValues(CoreMetric.RETRY_COUNT).stream()
                .mapToInt(Integer::intValue)
                .sum();
        if (callRetries > 0) {
            retries.add(callRetries);
            List<String> names = apiCall.metricValues(CoreMetric.OPERATION_NAME);
            String operation = names.isEmpty() ? "unknown" : names.get(0);
            retriesByOperation
                    .computeIfAbsent(operation, name -> new LongAdder())
                    .add(callRetries);
        }
        for (MetricCollection child : apiCall.children()) {
            if (ATTEMPT.equals(child.name())) {
                attempts.increment();
                httpPools.record(child);
            }
        }
        List<String> names = apiCall.metricValues(CoreMetric.OPERATION_NAME);
        OperationMetrics operation = names.isEmpty() ? null : operations.get(names.get(0));
        (operation == null ? operations.get(OTHER_OPERATION) : operation).record(apiCall);
    }

    /**
     * Counts one GetObject sent without the SDK's pipeline ({@link DirectRangedGet}) that succeeded in one
     * attempt, and its body's bytes.
     *
     * @param nanos from signing to the body's last byte, ns
     * @param firstByteNanos from signing to the answer's headers, ns
     * @param bodyNanos from the headers to the body's last byte, ns; negative for a body the caller streams
     * @param bytes body bytes received (a streamed body's are counted as they are read)
     */
    void directGet(long nanos, long firstByteNanos, long bodyNanos, long bytes) {
        requests.increment();
        attempts.increment();
        bytesDownloaded.add(bytes);
        operations.get("GetObject").recordDirect(nanos, firstByteNanos, bodyNanos);
    }

    /**
     * Counts one GetObject attempt sent without the SDK's pipeline that got no usable answer: the same GET then
     * goes through the SDK, which counts it as a request of its own.
     *
     * @param backoff the wait before the SDK sends it, or {@code null} for none
     */
    void directAttemptFailed(S3RetryStrategy.Failure failure, Duration backoff) {
        attempts.increment();
        attemptFailed(failure, backoff);
        operations.get("GetObject").recordDirectFailure(failure);
    }

    /** Counts {@code bytes} of an object body received (GetObject), as they arrive. */
    void bodyBytesReceived(long bytes) {
        bytesDownloaded.add(bytes);
    }

    /**
     * The counts and latency of each S3 operation: one entry per name of {@link #OPERATIONS} and one
     * for {@value #OTHER_OPERATION}, in that order, from the start (the map and its values are live).
     */
    public Map<String, OperationMetrics> operations() {
        return operations;
    }

    /** The HTTP clients' connection pools, as each reported them with its most recent request. */
    public HttpPoolMetrics httpPools() {
        return httpPools;
    }

    /** Bytes of object bodies received by GetObject requests, counted as they arrive. */
    public long bytesDownloaded() {
        return bytesDownloaded.sum();
    }

    /**
     * Counts one failed attempt, as the retry strategy saw it.
     *
     * @param backoff the wait before the retry, or {@code null} if the request is not retried
     */
    void attemptFailed(S3RetryStrategy.Failure failure, Duration backoff) {
        failedAttempts.get(failure).increment();
        if (backoff != null) {
            (failure == S3RetryStrategy.Failure.THROTTLED ? afterThrottling : afterOtherFailures).record(backoff);
        }
    }

    /** The counts so far. */
    public Snapshot snapshot() {
        Map<String, Long> byOperation = new TreeMap<>();
        retriesByOperation.forEach((operation, count) -> byOperation.put(operation, count.sum()));
        return new Snapshot(
                requests.sum(),
                failedRequests.sum(),
                attempts.sum(),
                retries.sum(),
                failed(S3RetryStrategy.Failure.THROTTLED),
                failed(S3RetryStrategy.Failure.ERROR_ANSWER),
                failed(S3RetryStrategy.Failure.CONNECTION),
                failed(S3RetryStrategy.Failure.TIMED_OUT),
                byOperation,
                afterThrottling.snapshot(),
                afterOtherFailures.snapshot());
    }

    private long failed(S3RetryStrategy.Failure failure) {
        return failedAttempts.get(failure).sum();
    }

    /** Nothing to release: the counts stay readable after the client is closed. */
    @Override
    public void close() {}

    @Override
    public String toString() {
        return snapshot().toString();
    }

    /** Backoffs before retries: how many, and the shortest and longest, in ms. */
    private static final class Backoffs {
        private final LongAdder count = new LongAdder();
        private final LongAccumulator min = new LongAccumulator(Math::min, Long.MAX_VALUE);
        private final LongAccumulator max = new LongAccumulator(Math::max, 0);

        void record(Duration backoff) {
            long ms = backoff.toMillis();
            count.increment();
            min.accumulate(ms);
            max.accumulate(ms);
        }

        BackoffRange snapshot() {
            long n = count.sum();
            return new BackoffRange(n, n == 0 ? 0 : min.get(), max.get());
        }
    }

    /**
     * Backoffs the retry strategy chose before retries of one kind.
     *
     * <p>Immutable.
     */
    public static final class BackoffRange {
        private final long retries;
        private final long shortestMillis;
        private final long longestMillis;

        BackoffRange(long retries, long shortestMillis, long longestMillis) {
            this.retries = retries;
            this.shortestMillis = shortestMillis;
            this.longestMillis = longestMillis;
        }

        /** Retries that waited a backoff. */
        public long retries() {
            return retries;
        }

        /** The shortest backoff in ms; 0 without retries. */
        public long shortestMillis() {
            return shortestMillis;
        }

        /** The longest backoff in ms; 0 without retries. */
        public long longestMillis() {
            return longestMillis;
        }

        @Override
        public String toString() {
            return retries + " retries, " + shortestMillis + ".." + longestMillis + " ms";
        }
    }

    /**
     * The counts at one moment. Requests are API calls (one per {@code ObjectClient} request, however
     * many attempts it took); attempts are HTTP exchanges. Immutable.
     */
    public static final class Snapshot {
        private final long requests;
        private final long failedRequests;
        private final long attempts;
        private final long retries;
        private final long throttledAttempts;
        private final long errorAnswerAttempts;
        private final long connectionFailedAttempts;
        private final long timedOutAttempts;
        private final Map<String, Long> retriesByOperation;
        private final BackoffRange backoffAfterThrottling;
        private final BackoffRange backoffAfterOtherFailures;

        Snapshot(
                long requests,
                long failedRequests,
                long attempts,
                long retries,
                long throttledAttempts,
                long errorAnswerAttempts,
                long connectionFailedAttempts,
                long timedOutAttempts,
                Map<String, Long> retriesByOperation,
                BackoffRange backoffAfterThrottling,
                BackoffRange backoffAfterOtherFailures) {
            this.requests = requests;
            this.failedRequests = failedRequests;
            this.attempts = attempts;
            this.retries = retries;
            this.throttledAttempts = throttledAttempts;
            this.errorAnswerAttempts = errorAnswerAttempts;
            this.connectionFailedAttempts = connectionFailedAttempts;
            this.timedOutAttempts = timedOutAttempts;
            this.retriesByOperation = Map.copyOf(retriesByOperation);
            this.backoffAfterThrottling = backoffAfterThrottling;
            this.backoffAfterOtherFailures = backoffAfterOtherFailures;
        }

        /** API calls finished, successful or not. */
        public long requests() {
            return requests;
        }

        /** API calls that failed after all their attempts. */
        public long failedRequests() {
            return failedRequests;
        }

        /** HTTP attempts of all API calls. */
        public long attempts() {
            return attempts;
        }

        /** Attempts after the first of each API call. */
        public long retries() {
            return retries;
        }

        /** Retries by S3 operation name (e.g. {@code UploadPart}); operations never retried are absent. */
        public Map<String, Long> retriesByOperation() {
            return retriesByOperation;
        }

        /** Retries of one S3 operation, e.g. {@code CompleteMultipartUpload}. */
        public long retries(String operation) {
            return retriesByOperation.getOrDefault(operation, 0L);
        }

        /** Attempts answered with throttling (any 503, 429 and the other throttling codes). */
        public long throttledAttempts() {
            return throttledAttempts;
        }

        /** Attempts answered with an S3 error other than throttling: 5xx, and the 4xx that end a request. */
        public long errorAnswerAttempts() {
            return errorAnswerAttempts;
        }

        /** Attempts that got no usable answer: the connection failed, broke or closed early. */
        public long connectionFailedAttempts() {
            return connectionFailedAttempts;
        }

        /** Attempts abandoned at the per-attempt timeout. */
        public long timedOutAttempts() {
            return timedOutAttempts;
        }

        /** The backoffs before retries of throttled attempts. */
        public BackoffRange backoffAfterThrottling() {
            return backoffAfterThrottling;
        }

        /** The backoffs before retries of attempts that failed otherwise (5xx, I/O, timeouts, corrupted bodies). */
        public BackoffRange backoffAfterOtherFailures() {
            return backoffAfterOtherFailures;
        }

        /** The counts since {@code earlier}; the backoff ranges are this snapshot's. */
        public Snapshot since(Snapshot earlier) {
            Map<String, Long> byOperation = new TreeMap<>(retriesByOperation);
            earlier.retriesByOperation.forEach((operation, count) -> byOperation.merge(operation, -count, Long::sum));
            byOperation.values().removeIf(count -> count == 0);
            return new Snapshot(
                    requests - earlier.requests,
                    failedRequests - earlier.failedRequests,
                    attempts - earlier.attempts,
                    retries - earlier.retries,
                    throttledAttempts - earlier.throttledAttempts,
                    errorAnswerAttempts - earlier.errorAnswerAttempts,
                    connectionFailedAttempts - earlier.connectionFailedAttempts,
                    timedOutAttempts - earlier.timedOutAttempts,
                    byOperation,
                    backoffAfterThrottling,
                    backoffAfterOtherFailures);
        }

        @Override
        public String toString() {
            return "S3 requests: " + requests + " (" + failedRequests + " failed), attempts: " + attempts
                    + ", retries: " + retries + " " + retriesByOperation
                    + ", throttled: " + throttledAttempts + ", other error answers: " + errorAnswerAttempts
                    + ", connection failures: " + connectionFailedAttempts + ", timeouts: " + timedOutAttempts
                    + ", backoff after throttling: " + backoffAfterThrottling
                    + ", after other failures: " + backoffAfterOtherFailures;
        }
    }
}
