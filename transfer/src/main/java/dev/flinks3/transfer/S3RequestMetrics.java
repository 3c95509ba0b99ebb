package dev.flinks3.transfer;

import java.time.Duration;
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
 * Counts what the S3 client's requests went through, from the metrics the AWS SDK publishes after
 * each API call ("Java SDK metrics", {@link CoreMetric}): requests, attempts, retries, and the
 * failed attempts by the SDK's error type (throttling, other error answers, I/O, configured timeout). It
 * also keeps the backoff the retry strategy chose before each retry, split by what the previous
 * attempt ran into, so a test can show that throttled requests wait longer than failed ones without
 * measuring time.
 *
 * <p>Registered as a metric publisher of the client by {@link S3ClientOwner}; the filesystem can
 * expose {@link #snapshot()} in Flink's metric group. Holds counts only, never request contents or
 * credentials. Thread-safe; {@link #publish} runs on the SDK's threads and only adds to counters.
 */
public final class S3RequestMetrics implements MetricPublisher {

    /** The values of {@link CoreMetric#ERROR_TYPE} this class counts. */
    static final String THROTTLING = "Throttling";
    /** The SDK's name for any error answer other than throttling, 4xx included. */
    static final String ERROR_ANSWER = "ServerError";
    static final String IO = "IO";
    static final String CONFIGURED_TIMEOUT = "ConfiguredTimeout";

    private static final String ATTEMPT = "ApiCallAttempt";

    private final LongAdder requests = new LongAdder();
    private final LongAdder failedRequests = new LongAdder();
    private final LongAdder attempts = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final ConcurrentMap<String, LongAdder> failedAttemptsByType = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, LongAdder> retriesByOperation = new ConcurrentHashMap<>();
    private final Backoffs afterThrottling = new Backoffs();
    private final Backoffs afterOtherFailures = new Backoffs();

    @Override
    public void publish(MetricCollection apiCall) {
        requests.increment();
        if (apiCall.metricValues(CoreMetric.API_CALL_SUCCESSFUL).contains(Boolean.FALSE)) {
            failedRequests.increment();
        }
        int callRetries = apiCall.metricValues(CoreMetric.RETRY_COUNT).stream().mapToInt(Integer::intValue).sum();
        if (callRetries > 0) {
            retries.add(callRetries);
            String operation = first(apiCall.metricValues(CoreMetric.OPERATION_NAME), "unknown");
            retriesByOperation.computeIfAbsent(operation, name -> new LongAdder()).add(callRetries);
        }
        String previousFailure = null;
        for (MetricCollection attempt : apiCall.children()) {
            if (!ATTEMPT.equals(attempt.name())) {
                continue;
            }
            attempts.increment();
            Duration backoff = first(attempt.metricValues(CoreMetric.BACKOFF_DELAY_DURATION), null);
            if (previousFailure != null && backoff != null) {
                (THROTTLING.equals(previousFailure) ? afterThrottling : afterOtherFailures).record(backoff);
            }
            previousFailure = first(attempt.metricValues(CoreMetric.ERROR_TYPE), null);
            if (previousFailure != null) {
                failedAttemptsByType.computeIfAbsent(previousFailure, type -> new LongAdder()).increment();
            }
        }
    }

    /** The counts so far. */
    public Snapshot snapshot() {
        Map<String, Long> byOperation = new TreeMap<>();
        retriesByOperation.forEach((operation, count) -> byOperation.put(operation, count.sum()));
        return new Snapshot(requests.sum(), failedRequests.sum(), attempts.sum(), retries.sum(),
                failedAttempts(THROTTLING), failedAttempts(ERROR_ANSWER), failedAttempts(IO),
                failedAttempts(CONFIGURED_TIMEOUT), byOperation, afterThrottling.snapshot(),
                afterOtherFailures.snapshot());
    }

    private long failedAttempts(String type) {
        LongAdder count = failedAttemptsByType.get(type);
        return count == null ? 0 : count.sum();
    }

    /** Nothing to release: the counts stay readable after the client is closed. */
    @Override
    public void close() {}

    private static <T> T first(List<T> values, T otherwise) {
        return values.isEmpty() ? otherwise : values.get(0);
    }

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
        private final long ioErrorAttempts;
        private final long timedOutAttempts;
        private final Map<String, Long> retriesByOperation;
        private final BackoffRange backoffAfterThrottling;
        private final BackoffRange backoffAfterOtherFailures;

        Snapshot(long requests, long failedRequests, long attempts, long retries, long throttledAttempts,
                long errorAnswerAttempts, long ioErrorAttempts, long timedOutAttempts,
                Map<String, Long> retriesByOperation, BackoffRange backoffAfterThrottling,
                BackoffRange backoffAfterOtherFailures) {
            this.requests = requests;
            this.failedRequests = failedRequests;
            this.attempts = attempts;
            this.retries = retries;
            this.throttledAttempts = throttledAttempts;
            this.errorAnswerAttempts = errorAnswerAttempts;
            this.ioErrorAttempts = ioErrorAttempts;
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

        /** Attempts answered with throttling (503 SlowDown, 429 and the other throttling codes). */
        public long throttledAttempts() {
            return throttledAttempts;
        }

        /** Attempts answered with an S3 error other than throttling: 5xx, and the 4xx that end a request. */
        public long errorAnswerAttempts() {
            return errorAnswerAttempts;
        }

        /** Attempts that failed on the connection (reset, closed, unreadable answer). */
        public long ioErrorAttempts() {
            return ioErrorAttempts;
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
            return new Snapshot(requests - earlier.requests, failedRequests - earlier.failedRequests,
                    attempts - earlier.attempts, retries - earlier.retries,
                    throttledAttempts - earlier.throttledAttempts, errorAnswerAttempts - earlier.errorAnswerAttempts,
                    ioErrorAttempts - earlier.ioErrorAttempts, timedOutAttempts - earlier.timedOutAttempts,
                    byOperation, backoffAfterThrottling, backoffAfterOtherFailures);
        }

        @Override
        public String toString() {
            return "S3 requests: " + requests + " (" + failedRequests + " failed), attempts: " + attempts
                    + ", retries: " + retries + " " + retriesByOperation
                    + ", throttled: " + throttledAttempts + ", other error answers: " + errorAnswerAttempts
                    + ", I/O errors: " + ioErrorAttempts + ", timeouts: " + timedOutAttempts
                    + ", backoff after throttling: " + backoffAfterThrottling
                    + ", after other failures: " + backoffAfterOtherFailures;
        }
    }
}
