package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How often direct GETs take a reading of the blocking client's pool: the first GET, then one per interval. */
@Timeout(30)
class HttpPoolMetricsTest {

    @Test
    void theFirstDirectGetReportsThePoolAndNoOtherWithinTheInterval() {
        HttpPoolMetrics pools = new HttpPoolMetrics(TimeUnit.HOURS.toNanos(1));

        assertThat(pools.blockingReportDue()).as("the first GET").isTrue();
        assertThat(pools.blockingReportDue()).as("a GET after it").isFalse();
        assertThat(pools.blockingReportDue()).isFalse();
    }

    @Test
    void oneGetReportsAgainOnceTheIntervalHasPassed() {
        HttpPoolMetrics pools = new HttpPoolMetrics(TimeUnit.MILLISECONDS.toNanos(20));
        assertThat(pools.blockingReportDue()).isTrue();

        Awaitility.await()
                .atMost(10, TimeUnit.SECONDS)
                .pollInterval(5, TimeUnit.MILLISECONDS)
                .until(pools::blockingReportDue);
    }
}
