package dev.flinks3.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class StopStepsTest {

    /** A sample a minute for an hour; TaskManagers stopped at minutes 15, 30 and 45 (between two samples). */
    private static final long[] HOUR =
            LongStream.range(0, 60).map(i -> i * 60_000).toArray();

    private static final long[] STOPS = {14 * 60_000 + 30_000, 29 * 60_000 + 30_000, 44 * 60_000 + 30_000};

    @Test
    void aFewUploadsLeftAtEachStopAndNothingBetweenIsNotGrowth() {
        double[] values = new double[60];
        for (int i = 0; i < values.length; i++) {
            values[i] = 3 * (i / 15);
        }

        StopSteps steps = StopSteps.of(HOUR, values, STOPS, 0.10, 4, 4);

        assertThat(steps.steps()).containsExactly(3.0, 3.0, 3.0);
        assertThat(steps.stretchesJudged()).isEqualTo(4);
        assertThat(steps.grewBetweenStops()).isFalse();
        assertThat(steps.grew()).isFalse();
        assertThat(Trend.of(HOUR, values, 0.10, 4).grew())
                .as("the whole soak's trend rises with the stops")
                .isTrue();
    }

    @Test
    void moreThanTheBoundAtOneStopIsGrowth() {
        double[] values = new double[60];
        for (int i = 0; i < values.length; i++) {
            values[i] = i < 30 ? 2 : 9;
        }

        StopSteps steps = StopSteps.of(HOUR, values, STOPS, 0.10, 4, 4);

        assertThat(steps.steps()).containsExactly(0.0, 7.0, 0.0);
        assertThat(steps.grewBetweenStops()).isFalse();
        assertThat(steps.grew()).isTrue();
    }

    @Test
    void uploadsPilingUpBetweenStopsAreGrowth() {
        double[] values = new double[60];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 15;
        }

        StopSteps steps = StopSteps.of(HOUR, values, STOPS, 0.10, 4, 4);

        assertThat(steps.grewBetweenStops()).isTrue();
        assertThat(steps.grew()).isTrue();
        assertThat(steps.steps()).allSatisfy(step -> assertThat(step).isNegative());
    }

    @Test
    void stopsOutsideTheSamplesAreNoSteps() {
        double[] values = new double[60];

        StopSteps steps = StopSteps.of(HOUR, values, new long[] {-1, 61 * 60_000}, 0.10, 4, 4);

        assertThat(steps.steps()).isEmpty();
        assertThat(steps.stretchesJudged()).isEqualTo(1);
        assertThat(steps.grew()).isFalse();
    }

    @Test
    void samplesWithoutTimesAreRefused() {
        assertThatThrownBy(() -> StopSteps.of(new long[] {1}, new double[] {1, 2}, STOPS, 0.1, 4, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 values and 1 times");
    }
}
