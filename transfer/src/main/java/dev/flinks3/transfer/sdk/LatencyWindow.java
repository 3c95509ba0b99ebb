package dev.flinks3.transfer.sdk;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * The durations of the most recent requests of one kind, for percentiles over a sliding window: the
 * last {@value #CAPACITY} requests that finished within {@link #WINDOW_NANOS the last minute}.
 *
 * <p>Recording writes two slots of a fixed ring and allocates nothing, so it can run once per request
 * on the SDK's threads; reading copies and sorts the window (at most {@value #CAPACITY} values) and is
 * meant for a metrics reader a few times a minute. Thread-safe; a reader racing a writer may see a
 * slot's previous duration, which only blurs a percentile by one sample.
 */
public final class LatencyWindow {

    /** Most recent durations kept; a power of two. */
    static final int CAPACITY = 1024;
    /** How far back a duration counts, in ns. */
    static final long WINDOW_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final AtomicLongArray durations = new AtomicLongArray(CAPACITY);
    /** When each slot's request ended, as ns since {@link #origin} plus one; 0 for a slot never written. */
    private final AtomicLongArray endTimes = new AtomicLongArray(CAPACITY);

    private final AtomicLong next = new AtomicLong();
    private final LongSupplier nanoClock;
    private final long origin;

    public LatencyWindow() {
        this(System::nanoTime);
    }

    /** @param nanoClock a monotonic clock in ns, such as {@link System#nanoTime()} */
    LatencyWindow(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.origin = nanoClock.getAsLong();
    }

    /** Records one request that just ended after {@code durationNanos}. */
    void record(long durationNanos) {
        int slot = (int) (next.getAndIncrement() & (CAPACITY - 1));
        durations.set(slot, durationNanos);
        endTimes.set(slot, nanoClock.getAsLong() - origin + 1);
    }

    /** The percentiles of the durations in the window now. */
    public Percentiles percentiles() {
        long oldest = nanoClock.getAsLong() - origin + 1 - WINDOW_NANOS;
        long[] window = new long[CAPACITY];
        int n = 0;
        for (int slot = 0; slot < CAPACITY; slot++) {
            long end = endTimes.get(slot);
            if (end != 0 && end >= oldest) {
                window[n++] = durations.get(slot);
            }
        }
        Arrays.sort(window, 0, n);
        return new Percentiles(n, rank(window, n, 0.50), rank(window, n, 0.99), n == 0 ? 0 : window[n - 1]);
    }

    /** Nearest-rank percentile {@code p} (0..1] of the first {@code n} sorted values; 0 when there are none. */
    private static long rank(long[] sorted, int n, double p) {
        if (n == 0) {
            return 0;
        }
        return sorted[Math.max(0, (int) Math.ceil(p * n) - 1)];
    }

    /**
     * The median, 99th percentile and longest of the durations in a window (nearest rank), in ns; all 0
     * for an empty window. Immutable.
     */
    public static final class Percentiles {
        private final int samples;
        private final long p50Nanos;
        private final long p99Nanos;
        private final long maxNanos;

        Percentiles(int samples, long p50Nanos, long p99Nanos, long maxNanos) {
            this.samples = samples;
            this.p50Nanos = p50Nanos;
            this.p99Nanos = p99Nanos;
            this.maxNanos = maxNanos;
        }

        /** Durations in the window. */
        public int samples() {
            return samples;
        }

        /** The median duration, in ns. */
        public long p50Nanos() {
            return p50Nanos;
        }

        /** The 99th percentile duration, in ns. */
        public long p99Nanos() {
            return p99Nanos;
        }

        /** The longest duration, in ns. */
        public long maxNanos() {
            return maxNanos;
        }

        @Override
        public String toString() {
            return "p50 " + TimeUnit.NANOSECONDS.toMillis(p50Nanos) + " ms, p99 "
                    + TimeUnit.NANOSECONDS.toMillis(p99Nanos) + " ms, max " + TimeUnit.NANOSECONDS.toMillis(maxNanos)
                    + " ms of " + samples;
        }
    }
}
