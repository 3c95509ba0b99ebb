package dev.flinks3.bench.soak;

import java.util.Arrays;

/**
 * Whether a figure sampled over a soak grew: a least-squares line through its samples (after the warm-up) with
 * its slope per hour, the means of the window's first and last thirds, and a verdict. The figure grew when both
 * the last third's mean exceeds the first third's and the line rises over the window by more than
 * {@code tolerance x |first-third mean| + floor}: the relative bound of the target (the last hour's mean
 * within 10% of the first hour's) with an absolute floor for figures whose noise is a few units (threads, a
 * connection opened for one more part), and the last third's median exceeds the first third's median by that
 * bound too: a figure still high at the end, not a spike that rose and passed within the last third (the
 * temporary files of one restore). A figure that fell or stayed within the bound is flat.
 *
 * @param samples samples in the window
 * @param first the first sample's value
 * @param last the last sample's value
 * @param highest the highest value
 * @param firstThirdMean mean of the window's first third
 * @param lastThirdMean mean of the window's last third
 * @param slopePerHour the fitted line's slope, units per hour
 * @param grew the verdict
 */
public record Trend(
        int samples,
        double first,
        double last,
        double highest,
        double firstThirdMean,
        double lastThirdMean,
        double slopePerHour,
        boolean grew) {

    /**
     * @param timesMillis sample times, ms, ascending
     * @param values the values at those times, as many
     * @param tolerance the relative bound, e.g. 0.10
     * @param floor the absolute bound in the figure's unit, 0 or more
     * @throws IllegalArgumentException if the arrays differ in length or hold fewer than two samples
     */
    public static Trend of(long[] timesMillis, double[] values, double tolerance, double floor) {
        if (timesMillis.length != values.length || values.length < 2) {
            throw new IllegalArgumentException("a trend needs two or more samples with a time each, got "
                    + values.length + " values and " + timesMillis.length + " times");
        }
        int n = values.length;
        double t0 = timesMillis[0];
        double meanT = 0;
        double meanV = 0;
        for (int i = 0; i < n; i++) {
            meanT += (timesMillis[i] - t0) / n;
            meanV += values[i] / n;
        }
        double covariance = 0;
        double variance = 0;
        for (int i = 0; i < n; i++) {
            double dt = timesMillis[i] - t0 - meanT;
            covariance += dt * (values[i] - meanV);
            variance += dt * dt;
        }
        double slopePerMs = variance == 0 ? 0 : covariance / variance;
        int third = Math.max(1, n / 3);
        double firstMean = Arrays.stream(values, 0, third).average().orElse(0);
        double lastMean = Arrays.stream(values, n - third, n).average().orElse(0);
        double rise = slopePerMs * (timesMillis[n - 1] - timesMillis[0]);
        double bound = tolerance * Math.abs(firstMean) + floor;
        double risenMedian = median(values, n - third, n) - median(values, 0, third);
        boolean grew = lastMean - firstMean > bound && rise > bound && risenMedian > bound;
        return new Trend(
                n,
                values[0],
                values[n - 1],
                Arrays.stream(values).max().orElse(0),
                firstMean,
                lastMean,
                slopePerMs * 3_600_000,
                grew);
    }

    /** The median of {@code values[from..to)}, {@code to > from}. */
    static double median(double[] values, int from, int to) {
        double[] sorted = Arrays.copyOfRange(values, from, to);
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
