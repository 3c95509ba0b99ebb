package dev.flinks3.bench.soak;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How one figure of one process grew over a soak, as two slopes the soak's rules bound ({@link SoakRules}):
 *
 * <ul>
 *   <li><b>per hour</b>: the least-squares slope of the figure over time inside stretches, pooled over every stretch
 *       (each stretch's samples are centred on their own mean time and value, so a step between two stretches adds
 *       nothing): growth while the job runs and checkpoints, a leak per checkpoint among it;
 *   <li><b>per TaskManager stop</b>: the least-squares slope of the stretches' levels (each one's median) over the
 *       number of the stop that opened it, from the stretch after the first stop on: what each stop leaves behind
 *       in a process that lives through it, and what grew over time between two stops. The first stop's own step is
 *       left out: the first restore sets up what later restores reuse (a pool's first threads, a read-ahead buffer).
 * </ul>
 *
 * A stretch is one process's settled samples between two TaskManager stops: from a little after the job recovered
 * from one stop until the next stop (see {@link SoakReport}).
 *
 * @param perHour units per hour, NaN if no stretch had {@value #MIN_SAMPLES} samples
 * @param stretchesForSlope the stretches the slope per hour pooled
 * @param perStop units per stop, NaN if fewer than {@value #MIN_LEVELS} stretches after stops had a level
 * @param levels the median of each stretch after a stop that had {@value #MIN_SAMPLES} samples, in stop order
 * @param stopsOfLevels the number of the stop that opened each of those stretches (1 for the first stop)
 */
public record Growth(
        double perHour, int stretchesForSlope, double perStop, List<Double> levels, List<Integer> stopsOfLevels) {

    /** Samples a stretch needs to count: fewer carry no slope and a level no better than one sample. */
    static final int MIN_SAMPLES = 3;

    /** Levels the slope per stop needs: two would make one difference of two medians the verdict. */
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
        double covariance = 0;
        double variance = 0;
        int pooled = 0;
        List<Double> levels = new ArrayList<>();
        List<Integer> stops = new ArrayList<>();
        for (Stretch stretch : stretches) {
            int n = stretch.values().length;
            if (n < MIN_SAMPLES) {
                continue;
            }
            pooled++;
            double meanT = 0;
            double meanV = 0;
            for (int i = 0; i < n; i++) {
                meanT += (double) (stretch.timesMillis()[i] - stretch.timesMillis()[0]) / n;
                meanV += stretch.values()[i] / n;
            }
            for (int i = 0; i < n; i++) {
                double dt = stretch.timesMillis()[i] - stretch.timesMillis()[0] - meanT;
                covariance += dt * (stretch.values()[i] - meanV);
                variance += dt * dt;
            }
            if (judgeStops && stretch.stop() >= 1) {
                levels.add(median(stretch.values()));
                stops.add(stretch.stop());
            }
        }
        double perHour = pooled == 0 ? Double.NaN : variance == 0 ? 0 : covariance / variance * MS_PER_HOUR;
        double perStop = levels.size() < MIN_LEVELS ? Double.NaN : slope(stops, levels);
        return new Growth(perHour, pooled, perStop, levels, stops);
    }

    /** Whether the slope per stop was computed. */
    public boolean stopsJudged() {
        return !Double.isNaN(perStop);
    }

    private static double slope(List<Integer> xs, List<Double> ys) {
        int n = xs.size();
        double meanX = xs.stream().mapToDouble(Integer::doubleValue).average().orElse(0);
        double meanY = ys.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double covariance = 0;
        double variance = 0;
        for (int i = 0; i < n; i++) {
            covariance += (xs.get(i) - meanX) * (ys.get(i) - meanY);
            variance += (xs.get(i) - meanX) * (xs.get(i) - meanX);
        }
        return variance == 0 ? 0 : covariance / variance;
    }

    /** The median of {@code values}, which is not empty. */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
