package dev.flinks3.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class TrendTest {

    /** A sample a minute for an hour. */
    private static final long[] HOUR =
            LongStream.range(0, 60).map(i -> i * 60_000).toArray();

    @Test
    void aLineRisingTenUnitsAnHourHasThatSlopeAndGrewPastTheBound() {
        double[] values = new double[60];
        for (int i = 0; i < values.length; i++) {
            values[i] = 100 + 10.0 * i / 60;
        }

        Trend trend = Trend.of(HOUR, values, 0.05, 0);

        assertThat(trend.slopePerHour()).isCloseTo(10, within(1e-9));
        assertThat(trend.first()).isEqualTo(100);
        assertThat(trend.highest()).isEqualTo(values[59]);
        assertThat(trend.grew()).isTrue();
    }

    @Test
    void noiseAroundAFlatLevelIsFlat() {
        Random random = new Random(1);
        double[] values = new double[60];
        for (int i = 0; i < values.length; i++) {
            values[i] = 200 + random.nextGaussian() * 5;
        }

        Trend trend = Trend.of(HOUR, values, 0.10, 0);

        assertThat(trend.grew()).isFalse();
        assertThat(Math.abs(trend.lastThirdMean() - trend.firstThirdMean())).isLessThan(20);
    }

    @Test
    void growthWithinTheRelativeBoundOrTheFloorIsFlat() {
        double[] values = new double[60];
        for (int i = 0; i < values.length; i++) {
            values[i] = 40 + (i >= 30 ? 3 : 0);
        }

        assertThat(Trend.of(HOUR, values, 0.10, 0).grew())
                .as("3 of 40 is within 10%")
                .isFalse();
        assertThat(Trend.of(HOUR, values, 0.01, 4).grew())
                .as("3 is within a floor of 4")
                .isFalse();
        assertThat(Trend.of(HOUR, values, 0.01, 1).grew()).isTrue();
    }

    @Test
    void aSpikeThatPassedWithinTheLastThirdIsNotGrowthButAStepThatStaysIs() {
        double[] spike = new double[60];
        double[] step = new double[60];
        for (int i = 0; i < spike.length; i++) {
            // 2 files, 18 for eight samples of the last third (a restore's files), then 2 again.
            spike[i] = i >= 44 && i < 52 ? 18 : 2;
            step[i] = i >= 44 ? 18 : 2;
        }

        Trend passed = Trend.of(HOUR, spike, 0.10, 4);
        assertThat(passed.lastThirdMean() - passed.firstThirdMean())
                .as("the means alone would call it growth")
                .isGreaterThan(4.2);
        assertThat(passed.grew()).isFalse();
        assertThat(passed.highest()).isEqualTo(18);
        assertThat(Trend.of(HOUR, step, 0.10, 4).grew()).isTrue();
    }

    @Test
    void aFigureThatFellDidNotGrow() {
        double[] values = new double[60];
        for (int i = 0; i < values.length; i++) {
            values[i] = 100 - i;
        }

        Trend trend = Trend.of(HOUR, values, 0, 0);

        assertThat(trend.grew()).isFalse();
        assertThat(trend.slopePerHour()).isNegative();
    }

    @Test
    void aSingleSampleIsRejected() {
        assertThatThrownBy(() -> Trend.of(new long[] {0}, new double[] {1}, 0.1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two or more samples");
    }
}
