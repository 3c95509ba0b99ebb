package dev.flinks3.bench.soak;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How one figure of one process grew over a soak, as two slopes the soak's rules bound ({@link SoakRules}). Both are
 * built on lower quartiles, not on single samples or means: a figure that leaks rises at every sample, while a
 * checkpoint's part buffers, its transfer threads and the connections it opens come and go, so a sample taken during
 * a checkpoint reads high and one between checkpoints reads what is held. The lower quartile is what the process
 * holds a quarter of the time or more.
 *
 * <ul>
 *   <li><b>per hour</b>: the rise inside stretches: in each stretch the lower quartile of its second half less that of
 *       its first half, summed over the stretches and divided by the time between the halves' middles, summed too.
 *       A step between two stretches adds nothing: growth while the job runs and checkpoints, a leak per
 *       checkpoint among it;
 *   <li><b>per TaskManager stop</b>: the slope of the stretches' levels (each one's lower quartile) over the number
 *       of the stop that opened it (the Theil-Sen estimate: the median of the slopes between every two levels, which
 *       one odd stretch does not move), from the stretch after the first stop on: what each stop leaves behind in
 *       a process that lives through it, and what grew over the time between stops. The first stop's own step is
 *       left out: the first restore sets up what later restores reuse (a pool's first threads, a read buffer).
 * </ul>
 *
 * A stretch is one process's settled samples between two TaskManager stops: from a little after the jobs recovered
 * from one stop until the next stop (see {@link SoakReport}).
 *
 * @param perHour units per hour, NaN if no stretch had {@value #MIN_SAMPLES} samples
 * @param stretchesForSlope the stretches the slope per hour summed over
 * @param perStop units per stop, NaN if fewer than {@value #MIN_LEVELS} stretches after stops had a level
 * @param levels the lower quartile of each stretch after a stop that had {@value #MIN_SAMPLES} samples, in stop
 *     order
 * @param stopsOfLevels the number of the stop that opened each of those stretches (1 for the first stop)
 */
public record Growth(
        double perHour, int stretchesForSlope, double perStop, List<Double> levels, List<Integer> stopsOfLevels) {

    /** Samples a stretch needs to count: two in each half. */
    static final int MIN_SAMPLES = 4;

    /** Levels the slope per stop needs: two would make one difference of two levels the verdict. */
    static final int MIN_LEVELS = 3;

    private static final double MS_PER_HOUR = 3_600_000;

    public Growth {
        levels = List.copyOf(levels);
        stopsOfLevels = List.copyOf(stopsOfLevels);
    }

    /**
     * The settled samples of one process between two stops.
     *
     * @param stop the number of stops before it (0 before the first stop)
     * @param timesMillis sample times, ms, ascending
     * @param values the figure at those times, as many
     */
    public record Stretch(int stop, long[] timesMillis, double[] values) {
        public Stretch {
            if (timesMillis.length != values.length) {
                throw new IllegalArgumentException("a stretch needs a time for each value, got " + values.length
                        + " values and " + timesMillis.length + " times");
            }
        }
    }

    /**
     * @param stretches the process's stretches, in time order
     * @param judgeStops whether the process lived through the stops (a TaskManager started after a kill did not:
     *     its stretches' levels belong to different processes, and only its slope per hour is judged)
     */
    public static Growth of(List<Stretch> stretches, boolean judgeStops) {
        double rise = 0;
        double millis = 0;
        int counted = 0;
        List<Double> levels = new ArrayList<>();
        List<Integer> stops = new ArrayList<>();
        for (Stretch stretch : stretches) {
            int n = stretch.values().length;
            if (n < MIN_SAMPLES) {
                continue;
            }
            counted++;
            int half = n / 2;
            long[] times = stretch.timesMillis();
            double[] values = stretch.values();
            rise += lowerQuartile(Arrays.copyOfRange(values, n - half, n))
                    - lowerQuartile(Arrays.copyOfRange(values, 0, half));
            millis += middle(times, n - half, n) - middle(times, 0, half);
            if (judgeStops && stretch.stop() >= 1) {
                levels.add(lowerQuartile(values));
                stops.add(stretch.stop());
            }
        }
        double perHour = counted == 0 ? Double.NaN : millis <= 0 ? 0 : rise / millis * MS_PER_HOUR;
        double perStop = levels.size() < MIN_LEVELS ? Double.NaN : theilSen(stops, levels);
        return new Growth(perHour, counted, perStop, levels, stops);
    }

    /** Whether the slope per stop was computed. */
    public boolean stopsJudged() {
        return !Double.isNaN(perStop);
    }

    /** The median of the slopes between every two points with different x. */
    private static double theilSen(List<Integer> xs, List<Double> ys) {
        List<Double> slopes = new ArrayList<>();
        for (int i = 0; i < xs.size(); i++) {
            for (int j = i + 1; j < xs.size(); j++) {
                if (!xs.get(i).equals(xs.get(j))) {
                    slopes.add((ys.get(j) - ys.get(i)) / (xs.get(j) - xs.get(i)));
                }
            }
        }
        return slopes.isEmpty()
                ? 0
                : quantile(slopes.stream().mapToDouble(Double::doubleValue).toArray(), 0.5);
    }

    private static double middle(long[] times, int from, int to) {
        return (times[from] + times[to - 1]) / 2.0;
    }

    /** The lower quartile of {@code values}, which is not empty. */
    static double lowerQuartile(double[] values) {
        return quantile(values, 0.25);
    }

    /** The {@code q} quantile of {@code values} (linear between the two nearest ranks). */
    static double quantile(double[] values, double q) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double rank = q * (sorted.length - 1);
        int below = (int) Math.floor(rank);
        int above = Math.min(sorted.length - 1, below + 1);
        return sorted[below] + (rank - below) * (sorted[above] - sorted[below]);
    }
}
