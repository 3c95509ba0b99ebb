package dev.flinks3.bench.checkpoint.stats;

import java.util.Arrays;

/**
 * Order statistics of a sample: min, p50, p90, p95, p99, max and the mean. Percentiles interpolate
 * linearly between the two closest ranks (the "R-7" definition, as numpy's default and
 * Excel's PERCENTILE.INC): for sorted values {@code x[0..n-1]}, {@code p(q) = x[h] + (h - floor h)
 * (x[floor h + 1] - x[floor h])} with {@code h = (n - 1) q}. All zero for an empty sample.
 *
 * @param count number of values
 */
public record Distribution(
        long count, double min, double p50, double p90, double p95, double p99, double max, double avg) {

    /** The distribution of {@code values} (not modified). */
    public static Distribution of(double... values) {
        if (values.length == 0) {
            return new Distribution(0, 0, 0, 0, 0, 0, 0, 0);
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (double v : sorted) {
            sum += v;
        }
        return new Distribution(
                sorted.length,
                sorted[0],
                percentile(sorted, 0.50),
                percentile(sorted, 0.90),
                percentile(sorted, 0.95),
                percentile(sorted, 0.99),
                sorted[sorted.length - 1],
                sum / sorted.length);
    }

    /**
     * The {@code q}-quantile of sorted values.
     *
     * @param sorted values in ascending order, not empty
     * @param q between 0 and 1
     */
    public static double percentile(double[] sorted, double q) {
        if (sorted.length == 0 || q < 0 || q > 1) {
            throw new IllegalArgumentException("need values and 0 <= q <= 1, had " + sorted.length + " values, q=" + q);
        }
        double h = (sorted.length - 1) * q;
        int lower = (int) Math.floor(h);
        int upper = Math.min(lower + 1, sorted.length - 1);
        return sorted[lower] + (h - lower) * (sorted[upper] - sorted[lower]);
    }
}
