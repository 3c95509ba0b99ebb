package dev.flinks3.bench.soak;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Whether a figure that may step up at each TaskManager stop grew beyond those steps: the multipart uploads a stopped
 * task leaves open (Flink closes no stream of a cancelled task, and the resumables of the checkpoint that failed
 * with the stop are handed to no committer), which a lifecycle rule or the plugin's purge of old uploads takes
 * later. Such a figure's trend over the whole soak rises with the number of stops however well the plugin does;
 * what must hold is that each stop adds at most a bound and that the figure is flat between stops.
 *
 * <p>A stop's step is the median of the (up to) three samples after it, before the next stop, minus the median of
 * the three before it. Each stretch between two stops (and before the first and after the last) with four or more
 * samples is judged by {@link Trend} with the soak's tolerance and the figure's floor.
 *
 * @param steps the rise across each stop inside the samples' time span, in the figure's unit, in stop order
 * @param perStopBound the rise allowed at one stop
 * @param stretchesJudged stretches between stops with enough samples to judge
 * @param grewBetweenStops whether a stretch between stops grew
 * @param grew whether a step exceeded the bound or a stretch grew
 */
public record StopSteps(
        List<Double> steps, double perStopBound, int stretchesJudged, boolean grewBetweenStops, boolean grew) {

    private static final int SIDE = 3;
    private static final int MIN_STRETCH = 4;

    public StopSteps {
        steps = List.copyOf(steps);
    }

    /**
     * @param timesMillis sample times, ms, ascending
     * @param values the values at those times, as many
     * @param stopsMillis when TaskManagers were stopped, ms, ascending
     * @param tolerance the relative bound of a stretch's {@link Trend}
     * @param floor the absolute bound of a stretch's {@link Trend}, in the figure's unit
     * @param perStopBound the rise allowed at one stop, in the figure's unit
     * @throws IllegalArgumentException if the arrays differ in length or hold fewer than two samples
     */
    public static StopSteps of(
            long[] timesMillis,
            double[] values,
            long[] stopsMillis,
            double tolerance,
            double floor,
            double perStopBound) {
        if (timesMillis.length != values.length || values.length < 2) {
            throw new IllegalArgumentException("stop steps need two or more samples with a time each, got "
                    + values.length + " values and " + timesMillis.length + " times");
        }
        List<Integer> bounds = new ArrayList<>();
        bounds.add(0);
        for (long stop : stopsMillis) {
            int at = firstAtOrAfter(timesMillis, stop);
            if (at > 0 && at < values.length && at > bounds.get(bounds.size() - 1)) {
                bounds.add(at);
            }
        }
        bounds.add(values.length);
        List<Double> steps = new ArrayList<>();
        for (int i = 1; i + 1 < bounds.size(); i++) {
            int stop = bounds.get(i);
            int before = Math.max(bounds.get(i - 1), stop - SIDE);
            int after = Math.min(bounds.get(i + 1), stop + SIDE);
            steps.add(Trend.median(values, stop, after) - Trend.median(values, before, stop));
        }
        int judged = 0;
        boolean grewBetween = false;
        for (int i = 0; i + 1 < bounds.size(); i++) {
            int from = bounds.get(i);
            int to = bounds.get(i + 1);
            if (to - from >= MIN_STRETCH) {
                judged++;
                Trend stretch = Trend.of(
                        Arrays.copyOfRange(timesMillis, from, to),
                        Arrays.copyOfRange(values, from, to),
                        tolerance,
                        floor);
                grewBetween |= stretch.grew();
            }
        }
        boolean stepTooHigh = steps.stream().anyMatch(step -> step > perStopBound);
        return new StopSteps(steps, perStopBound, judged, grewBetween, grewBetween || stepTooHigh);
    }

    private static int firstAtOrAfter(long[] times, long time) {
        int at = Arrays.binarySearch(times, time);
        if (at < 0) {
            return -at - 1;
        }
        while (at > 0 && times[at - 1] == time) {
            at--;
        }
        return at;
    }
}
