package dev.flinks3.bench.checkpoint.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class DistributionTest {

    private static final Offset<Double> EXACT = Offset.offset(1e-9);

    @Test
    void interpolatesBetweenClosestRanksLikeNumpy() {
        // numpy.percentile([1, 2, 3, 4], [50, 90, 95, 99]) == [2.5, 3.7, 3.85, 3.97]
        Distribution d = Distribution.of(4, 1, 3, 2);

        assertThat(d.count()).isEqualTo(4);
        assertThat(d.min()).isEqualTo(1);
        assertThat(d.p50()).isCloseTo(2.5, EXACT);
        assertThat(d.p90()).isCloseTo(3.7, EXACT);
        assertThat(d.p95()).isCloseTo(3.85, EXACT);
        assertThat(d.p99()).isCloseTo(3.97, EXACT);
        assertThat(d.max()).isEqualTo(4);
        assertThat(d.avg()).isCloseTo(2.5, EXACT);
    }

    @Test
    void agreesWithFlinksOwnMedianOfTheRecordedCheckpoints() {
        // Flink's summary in checkpoints.json reports p50 2750.5 ms for durations 1525, 1990, 3511, 4764.
        double flinkP50 = RestFixtures.json("checkpoints.json")
                .path("summary")
                .path("end_to_end_duration")
                .path("p50")
                .asDouble();

        assertThat(Distribution.of(4764, 1990, 1525, 3511).p50()).isEqualTo(flinkP50);
    }

    @Test
    void oneValueIsEveryPercentile() {
        Distribution d = Distribution.of(7);

        assertThat(d.min()).isEqualTo(7);
        assertThat(d.p50()).isEqualTo(7);
        assertThat(d.p99()).isEqualTo(7);
        assertThat(d.max()).isEqualTo(7);
    }

    @Test
    void anEmptySampleIsAllZero() {
        assertThat(Distribution.of()).isEqualTo(new Distribution(0, 0, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void doesNotReorderTheCallersValues() {
        double[] values = {3, 1, 2};

        Distribution.of(values);

        assertThat(values).containsExactly(3, 1, 2);
    }

    @Test
    void rejectsAQuantileOutsideZeroToOne() {
        assertThatThrownBy(() -> Distribution.percentile(new double[] {1}, 1.5))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
