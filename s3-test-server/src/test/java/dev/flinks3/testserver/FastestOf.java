package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A timing check that a busy machine cannot fail but a wrong implementation still does. Noise on a
 * loaded machine only adds time: every attempt must reach the lower bound (a strict check: nothing
 * can make a paced body arrive early), and the fastest of up to {@code attempts} attempts must be
 * within the upper bound (a slow pacer is slow in every attempt; a busy machine is rarely busy in
 * all of them). Measuring stops at the first attempt within the bounds.
 */
final class FastestOf {

    private final int attempts;

    FastestOf(int attempts) {
        this.attempts = attempts;
    }

    /**
     * @throws AssertionError if an attempt is below {@code low}, or all attempts are above {@code high}
     * @return the measured durations
     */
    List<Duration> assertWithin(Duration low, Duration high, Supplier<Duration> measurement) {
        List<Duration> measured = new ArrayList<>();
        while (measured.size() < attempts) {
            Duration took = measurement.get();
            System.out.println("measured " + took.toMillis() + " ms (expected " + low.toMillis() + ".."
                    + high.toMillis() + " ms)");
            measured.add(took);
            assertThat(took).as("attempt %d of %s", measured.size(), measured).isGreaterThanOrEqualTo(low);
            if (took.compareTo(high) <= 0) {
                return measured;
            }
        }
        assertThat(measured)
                .as("the fastest of %d attempts", attempts)
                .anySatisfy(d -> assertThat(d).isLessThanOrEqualTo(high));
        return measured;
    }
}
