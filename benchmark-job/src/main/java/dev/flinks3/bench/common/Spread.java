package dev.flinks3.bench.common;

import java.util.Collection;

/**
 * One figure over several rounds: its mean, smallest and largest value. A figure whose largest value
 * exceeds its smallest by more than {@link #FLAG_RATIO} is flagged as unstable
 * (rounds that differ by more than 1.25x are flagged).
 *
 * @param mean arithmetic mean of the values
 * @param min smallest value
 * @param max largest value
 * @param count number of values
 */
public record Spread(double mean, double min, double max, int count) {

    /** Rounds whose values differ by more than this factor make a figure unstable. */
    public static final double FLAG_RATIO = 1.25;

    /**
     * The spread of some values.
     *
     * @throws IllegalArgumentException if there are none
     */
    public static Spread of(Collection<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a spread needs at least one value");
        }
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double value : values) {
            sum += value;
            min = Math.min(min, value);
            max = Math.max(max, value);
        }
        return new Spread(sum / values.size(), min, max, values.size());
    }

    /**
     * Largest over smallest value; 1 when all values are equal (including all zero), infinite when the
     * smallest is zero and the largest is not.
     */
    public double maxOverMin() {
        if (max == min) {
            return 1;
        }
        return min <= 0 ? Double.POSITIVE_INFINITY : max / min;
    }

    /** Whether the rounds differ by more than {@link #FLAG_RATIO}. */
    public boolean flagged() {
        return maxOverMin() > FLAG_RATIO;
    }
}
