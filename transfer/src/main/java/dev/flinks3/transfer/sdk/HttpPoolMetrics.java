package dev.flinks3.transfer.sdk;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.http.HttpMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.SdkMetric;

/**
 * The connection pools of the HTTP clients the S3 requests went through, as each client reported them with
 * its most recent request: connections leased (in use, the reporting request's among them), idle connections
 * ready for the next request, the pool's maximum, and requests waiting for a connection. The AWS SDK's HTTP
 * clients report these ({@link HttpMetric#LEASED_CONCURRENCY}, {@link HttpMetric#AVAILABLE_CONCURRENCY},
 * {@link HttpMetric#MAX_CONCURRENCY}, {@link HttpMetric#PENDING_CONCURRENCY_ACQUIRES}) in the metrics of each
 * attempt; the pools themselves expose nothing, so a reading changes only when a request is sent and keeps
 * its last value while none is (the blocking pool's, at most every {@value #BLOCKING_REPORT_INTERVAL_NANOS} ns).
 * Two pools: the asynchronous client's (Netty or the CRT HTTP client, every request but the streamed GETs)
 * and the blocking client's (Apache HttpClient 5, the streamed GETs), told apart by {@link
 * HttpMetric#HTTP_CLIENT_NAME}. Thread-safe.
 */
public final class HttpPoolMetrics {

    /** The SDK's names of its blocking HTTP clients; every other client is asynchronous. */
    private static final Set<String> BLOCKING_CLIENTS = Set.of("Apache5", "Apache", "UrlConnection");

    /**
     * How often a direct GET asks the blocking client for a reading of its pool, at most: a reading takes the pool's
     * lock and a metric collection per request, which a reader sending thousands of small GETs per second (point
     * lookups) would pay on every one, for a gauge that keeps its last value anyway.
     */
    static final long BLOCKING_REPORT_INTERVAL_NANOS = 100_000_000L;

    private final AtomicReference<Pool> async = new AtomicReference<>(Pool.NONE);
    private final AtomicReference<Pool> blocking = new AtomicReference<>(Pool.NONE);
    /** When a direct GET last took a reading of the blocking pool, {@link System#nanoTime()}; 0 for never. */
    private final AtomicLong blockingReportNanos = new AtomicLong();

    private final long blockingReportIntervalNanos;

    HttpPoolMetrics() {
        this(BLOCKING_REPORT_INTERVAL_NANOS);
    }

    /** @param blockingReportIntervalNanos how often a direct GET reports the blocking pool, at most, ns */
    HttpPoolMetrics(long blockingReportIntervalNanos) {
        this.blockingReportIntervalNanos = blockingReportIntervalNanos;
    }

    /**
     * Whether the direct GET about to be sent is to report the blocking client's pool: the first one, and then one
     * per interval ({@link #BLOCKING_REPORT_INTERVAL_NANOS}) at most, the one that claims the turn.
     */
    boolean blockingReportDue() {
        long last = blockingReportNanos.get();
        long now = System.nanoTime();
        return (last == 0 || now - last >= blockingReportIntervalNanos)
                && blockingReportNanos.compareAndSet(last, now == 0 ? 1 : now);
    }

    /** Takes the readings of one attempt's metric collection (with its HTTP client's children), if any. */
    void record(MetricCollection attempt) {
        String client = first(attempt, HttpMetric.HTTP_CLIENT_NAME);
        Integer leased = first(attempt, HttpMetric.LEASED_CONCURRENCY);
        if (client == null || leased == null) {
            return;
        }
        Integer idle = first(attempt, HttpMetric.AVAILABLE_CONCURRENCY);
        Integer max = first(attempt, HttpMetric.MAX_CONCURRENCY);
        Integer pending = first(attempt, HttpMetric.PENDING_CONCURRENCY_ACQUIRES);
        Pool pool =
                new Pool(client, leased, idle == null ? 0 : idle, max == null ? 0 : max, pending == null ? 0 : pending);
        (BLOCKING_CLIENTS.contains(client) ? blocking : async).set(pool);
    }

    /** The asynchronous HTTP client's pool as last reported; {@link Pool#NONE} before its first request. */
    public Pool async() {
        return async.get();
    }

    /** The blocking HTTP client's pool as last reported; {@link Pool#NONE} before its first request. */
    public Pool blocking() {
        return blocking.get();
    }

    @Override
    public String toString() {
        return "async " + async() + ", blocking " + blocking();
    }

    /** The first value of a metric in the collection or its children. */
    static <T> T first(MetricCollection collection, SdkMetric<T> metric) {
        List<T> values = collection.metricValues(metric);
        if (!values.isEmpty()) {
            return values.get(0);
        }
        for (MetricCollection child : collection.children()) {
            T value = first(child, metric);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    /**
     * One HTTP client's pool as last reported: connections leased and idle, the maximum, requests waiting for
     * a connection. Immutable.
     */
    public static final class Pool {
        /** No reading yet: every figure 0. */
        public static final Pool NONE = new Pool("none", 0, 0, 0, 0);

        private final String client;
        private final int leased;
        private final int idle;
        private final int max;
        private final int pending;

        Pool(String client, int leased, int idle, int max, int pending) {
            this.client = client;
            this.leased = leased;
            this.idle = idle;
            this.max = max;
            this.pending = pending;
        }

        /** The SDK's name of the HTTP client, e.g. {@code NettyNio}. */
        public String client() {
            return client;
        }

        /**
         * Connections in use (leased to requests) when the reporting request was sent (the CRT HTTP client
         * counts that request's own, Netty's reads the pool before acquiring it).
         */
        public int leased() {
            return leased;
        }

        /** Connections open and idle, ready for a request without a new connection. */
        public int idle() {
            return idle;
        }

        /** The most connections the pool opens. */
        public int max() {
            return max;
        }

        /** Requests waiting for a connection. */
        public int pending() {
            return pending;
        }

        @Override
        public String toString() {
            return client + ": " + leased + " leased, " + idle + " idle of " + max + ", " + pending + " waiting";
        }
    }
}
