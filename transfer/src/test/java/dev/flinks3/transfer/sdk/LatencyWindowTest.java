package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Percentiles by nearest rank over the last minute and the last {@value LatencyWindow#CAPACITY} requests. */
@Timeout(10)
class LatencyWindowTest {

    private final AtomicLong now = new AtomicLong(TimeUnit.HOURS.toNanos(5));
    private final LatencyWindow window = new LatencyWindow(now::get);

    @Test
    void anEmptyWindowHasNoSamplesAndZeroPercentiles() {
        LatencyWindow.Percentiles p = window.percentiles();

        assertThat(p.samples()).isZero();
        assertThat(p.p50Nanos()).isZero();
        assertThat(p.p99Nanos()).isZero();
        assertThat(p.maxNanos()).isZero();
    }

    @Test
    void percentilesAreNearestRanksOfTheRecordedDurations() {
        for (int ms = 1; ms <= 200; ms++) {
            window.record(TimeUnit.MILLISECONDS.toNanos(ms));
        }

        LatencyWindow.Percentiles p = window.percentiles();

        assertThat(p.samples()).isEqualTo(200);
        assertThat(p.p50Nanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(p.p99Nanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(198));
        assertThat(p.maxNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
    }

    @Test
    void requestsOlderThanTheWindowNoLongerCount() {
        window.record(TimeUnit.SECONDS.toNanos(9));
        now.addAndGet(LatencyWindow.WINDOW_NANOS / 2);
        window.record(TimeUnit.MILLISECONDS.toNanos(20));
        now.addAndGet(LatencyWindow.WINDOW_NANOS / 2 + 1);

        LatencyWindow.Percentiles p = window.percentiles();

        assertThat(p.samples()).isEqualTo(1);
        assertThat(p.maxNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
    }

    @Test
    void onlyTheMostRecentRequestsAreKept() {
        window.record(TimeUnit.SECONDS.toNanos(30));
        for (int i = 0; i < LatencyWindow.CAPACITY; i++) {
            window.record(TimeUnit.MILLISECONDS.toNanos(5));
        }

        LatencyWindow.Percentiles p = window.percentiles();

        assertThat(p.samples()).isEqualTo(LatencyWindow.CAPACITY);
        assertThat(p.maxNanos()).as("the oldest, overwritten").isEqualTo(TimeUnit.MILLISECONDS.toNanos(5));
    }
}
