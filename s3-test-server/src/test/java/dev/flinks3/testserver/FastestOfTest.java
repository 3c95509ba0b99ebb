package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timing check of {@link WanProfileTest} passes a loaded machine and fails a wrong pacer. */
class FastestOfTest {

    private static final Duration FIFTY_MB_AT_50_MB_S = Duration.ofMillis(1010);
    private static final Duration THREE_TIMES = Duration.ofMillis(3000);

    private final FastestOf check = new FastestOf(WanProfileTest.ATTEMPTS);

    @Test
    void aPacerAtSevenMegabytesPerSecondFails() {
        // 50 MB at 7 MB/s, as S3Proxy's own throttled stream delivers, on an idle machine.
        assertThatThrownBy(() -> check.assertWithin(
                        FIFTY_MB_AT_50_MB_S, THREE_TIMES, timings(7_150, 7_140, 7_160, 7_150, 7_145)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("fastest of");
    }

    @Test
    void aBodyFasterThanTheProfileFailsAtOnce() {
        assertThatThrownBy(() -> check.assertWithin(FIFTY_MB_AT_50_MB_S, THREE_TIMES, timings(3_400, 900)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("attempt 2");
    }

    @Test
    void aLoadedMachineGetsAnotherAttempt() {
        // The CI failure: 5.5 s once while other test JVMs ran on the 2 cores.
        List<Duration> measured = check.assertWithin(FIFTY_MB_AT_50_MB_S, THREE_TIMES, timings(5_500, 4_100, 2_300));

        assertThat(measured).hasSize(3);
    }

    @Test
    void anIdleMachineMeasuresOnce() {
        assertThat(check.assertWithin(FIFTY_MB_AT_50_MB_S, THREE_TIMES, timings(1_050)))
                .hasSize(1);
    }

    private static java.util.function.Supplier<Duration> timings(long... millis) {
        Iterator<Long> next = java.util.Arrays.stream(millis).boxed().iterator();
        return () -> Duration.ofMillis(next.next());
    }
}
