package dev.flinks3.transfer.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The socket timeout as the CRT clients' throughput monitor takes it: whole seconds, at least two. */
@Timeout(10)
class CrtThroughputMonitorTest {

    @Test
    void aSocketTimeoutBelowTwoSecondsBecomesTwo() {
        assertThat(CrtThroughputMonitor.timeout(Duration.ofMillis(1))).isEqualTo(Duration.ofSeconds(2));
        assertThat(CrtThroughputMonitor.timeout(Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aFractionOfASecondIsRoundedUp() {
        assertThat(CrtThroughputMonitor.timeout(Duration.ofMillis(2_001))).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void wholeSecondsFromTwoOnAreKept() {
        assertThat(CrtThroughputMonitor.timeout(Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(2));
        assertThat(CrtThroughputMonitor.timeout(Duration.ofSeconds(60))).isEqualTo(Duration.ofSeconds(60));
    }
}
