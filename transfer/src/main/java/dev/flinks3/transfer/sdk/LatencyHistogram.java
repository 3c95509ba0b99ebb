package dev.flinks3.transfer.sdk;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The durations of requests of one kind as a histogram with fixed buckets, the shape Prometheus aggregates
 * across processes: the count of durations at most each {@link #BOUNDS_SECONDS bound} (cumulative, as
 * Prometheus' {@code le} buckets), the count of all, and their sum, from the start. Fixed bounds are what
 * make two pods' histograms addable; a percentile over a window per pod cannot be combined.
 *
 * <p>Recording adds to two {@link LongAdder}s and allocates nothing, so it runs once per request on the SDK's
 * threads. Thread-safe; a reader racing a writer may see one duration in the count and not yet in its bucket,
 * which the next read corrects.
 */
public final class LatencyHistogram {

    /**
     * The buckets' upper bounds, in seconds, ascending; a last bucket without bound ({@code +Inf}) follows.
     * From 5 ms (a HEAD near the server) to 60 s (a part on a slow link, or a request after its retries).
     */
    public static final List<Double> BOUNDS_SECONDS =
            List.of(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0);

    private static final long[] BOUNDS_NANOS = BOUNDS_SECONDS.stream()
            .mapToLong(seconds -> Math.round(seconds * TimeUnit.SECONDS.toNanos(1)))
            .toArray();

    /** Per bucket (not cumulative), the last for durations above every bound. */
    private final LongAdder[] buckets = new LongAdder[BOUNDS_NANOS.length + 1];

    private final LongAdder sumNanos = new LongAdder();

    public LatencyHistogram() {
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new LongAdder();
        }
    }

    /** Records one duration, in ns; a negative one counts as 0. */
    void record(long durationNanos) {
        long nanos = Math.max(0, durationNanos);
        int bucket = 0;
        while (bucket < BOUNDS_NANOS.length && nanos > BOUNDS_NANOS[bucket]) {
            bucket++;
        }
        buckets[bucket].increment();
        sumNanos.add(nanos);
    }

    /** The counts now. */
    public Snapshot snapshot() {
        long[] cumulative = new long[buckets.length];
        long running = 0;
        for (int i = 0; i < buckets.length; i++) {
            running += buckets[i].sum();
            cumulative[i] = running;
        }
        return new Snapshot(cumulative, sumNanos.sum());
    }

    /**
     * A histogram's counts at one moment. Immutable.
     */
    public static final class Snapshot {
        private final long[] cumulative;
        private final long sumNanos;

        Snapshot(long[] cumulative, long sumNanos) {
            this.cumulative = cumulative;
            this.sumNanos = sumNanos;
        }

        /**
         * Durations at most {@link #BOUNDS_SECONDS bound} {@code i}, or all of them for {@code i ==
         * BOUNDS_SECONDS.size()} (the {@code +Inf} bucket).
         *
         * @throws IndexOutOfBoundsException for {@code i} outside {@code 0..BOUNDS_SECONDS.size()}
         */
        public long cumulativeCount(int i) {
            return cumulative[i];
        }

        /** Durations recorded. */
        public long count() {
            return cumulative[cumulative.length - 1];
        }

        /** Their sum, in seconds. */
        public double sumSeconds() {
            return sumNanos / 1e9;
        }

        /**
         * The smallest bound (seconds) at or below which at least {@code quantile} of the durations lie, as
         * a dashboard's {@code histogram_quantile} would bracket it; {@code +Inf} if beyond the last bound;
         * 0 without durations. For logs and tests, not for aggregation.
         */
        public double upperBoundSeconds(double quantile) {
            long n = count();
            if (n == 0) {
                return 0;
            }
            long rank = (long) Math.ceil(quantile * n);
            for (int i = 0; i < BOUNDS_SECONDS.size(); i++) {
                if (cumulative[i] >= rank) {
                    return BOUNDS_SECONDS.get(i);
                }
            }
            return Double.POSITIVE_INFINITY;
        }

        @Override
        public String toString() {
            return count() + " in " + String.format(java.util.Locale.ROOT, "%.3f", sumSeconds()) + " s, p50 <= "
                    + upperBoundSeconds(0.5) + " s, p99 <= " + upperBoundSeconds(0.99) + " s";
        }
    }
}
