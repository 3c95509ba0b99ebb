package dev.flinks3.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Growth} on made-up stretches: 7 stops 20 s apart, a stretch of 10 samples 1 s apart after each (and one
 * before the first), as CI's short soak samples them.
 */
@Timeout(10)
class GrowthTest {

    private static final int STOPS = 7;
    private static final long STOP_EVERY_MS = 20_000;
    private static final int SAMPLES = 10;

    @Test
    void noiseAroundAFlatLevelGrowsNeitherPerHourNorPerStop() {
        Random random = new Random(7);
        Growth growth = Growth.of(stretches((stop, t) -> 95 + random.nextInt(3) - 1), true);

        assertThat(Math.abs(growth.perHour()))
                .isLessThan(SoakRules.shortRun().limit(SoakFigure.THREADS).perHour());
        assertThat(Math.abs(growth.perStop())).isLessThan(0.5);
        assertThat(growth.stretchesForSlope()).isEqualTo(STOPS + 1);
    }

    @Test
    void oneLeftBehindAtEachStopIsASlopeOfOnePerStopAndNonePerHour() {
        Growth growth = Growth.of(stretches((stop, t) -> 260 + stop), true);

        assertThat(growth.perStop()).isCloseTo(1, within(1e-9));
        assertThat(growth.perHour()).isCloseTo(0, within(1e-9));
        assertThat(growth.levels()).hasSize(STOPS);
        assertThat(growth.stopsOfLevels()).containsExactly(1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void oneLeftBehindAtEachCheckpointEveryTwoSecondsIs1800PerHour() {
        Growth growth = Growth.of(stretches((stop, t) -> 260 + Math.floor(t / 2_000.0)), true);

        // Steps of one every 2 s read by quartiles of five samples: near 1,800, not exactly.
        assertThat(growth.perHour()).isBetween(1_400.0, 2_300.0);
        assertThat(growth.perStop()).as("the time between stops counts too").isCloseTo(10, within(0.5));
    }

    @Test
    void theFirstStopsStepIsLeftOut() {
        // The first restore creates a pool's threads that later restores reuse.
        Growth growth = Growth.of(stretches((stop, t) -> stop == 0 ? 90 : 95), true);

        assertThat(growth.perStop()).isZero();
    }

    @Test
    void aProcessThatDidNotLiveThroughTheStopsIsJudgedPerHourOnly() {
        Growth growth = Growth.of(stretches((stop, t) -> 100 + 5 * stop), false);

        assertThat(growth.stopsJudged()).isFalse();
        assertThat(growth.levels()).isEmpty();
        assertThat(growth.perHour()).isCloseTo(0, within(1e-9));
    }

    @Test
    void fewerThanThreeStretchesAfterAStopJudgeNoStops() {
        List<Growth.Stretch> two = stretches((stop, t) -> 1).subList(0, 3);

        assertThat(Growth.of(two, true).stopsJudged()).isFalse();
        assertThat(Growth.of(two, true).perStop()).isNaN();
    }

    @Test
    void stretchesOfFewerThanThreeSamplesCountForNothing() {
        Growth growth = Growth.of(List.of(new Growth.Stretch(0, new long[] {0, 1_000}, new double[] {1, 100})), true);

        assertThat(growth.perHour()).isNaN();
        assertThat(growth.stretchesForSlope()).isZero();
    }

    /** The figure as a function of the stop before it and the time since the first sample, ms. */
    private interface Figure {
        double at(int stop, long millis);
    }

    private static List<Growth.Stretch> stretches(Figure figure) {
        List<Growth.Stretch> stretches = new ArrayList<>();
        for (int stop = 0; stop <= STOPS; stop++) {
            long[] times = new long[SAMPLES];
            double[] values = new double[SAMPLES];
            for (int i = 0; i < SAMPLES; i++) {
                // Settled samples start 6 s after a stop (recovery and settle time).
                times[i] = stop * STOP_EVERY_MS + 6_000 + i * 1_000L;
                values[i] = figure.at(stop, times[i]);
            }
            stretches.add(new Growth.Stretch(stop, times, values));
        }
        return stretches;
    }
}
