package dev.flinks3.bench.checkpoint.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class RecordsPerSecondTest {

    @Test
    void parsesTheRestApisHistogram() {
        assertThat(RecordsPerSecond.parse("{1796000000=120, 1796000001=80}"))
                .containsExactly(Map.entry(1796000000L, 120L), Map.entry(1796000001L, 80L));
        assertThat(RecordsPerSecond.parse(null)).isEmpty();
        assertThat(RecordsPerSecond.parse("{}")).isEmpty();
    }

    /** A window from the middle of one second to the middle of another counts half of each edge second. */
    @Test
    void countsEdgeSecondsInProportion() {
        Map<Long, Long> perSecond = Map.of(10L, 100L, 11L, 200L, 12L, 400L);
        // 10.5 .. 12.5 s: half of 100, all of 200, half of 400 = 450 records in 2 s.
        assertThat(RecordsPerSecond.rate(perSecond, 10_500, 12_500)).isCloseTo(225.0, within(1e-9));
        // Outside every second: nothing.
        assertThat(RecordsPerSecond.rate(perSecond, 20_000, 30_000)).isZero();
    }
}
