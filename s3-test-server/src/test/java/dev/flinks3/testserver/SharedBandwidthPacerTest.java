package dev.flinks3.testserver;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Writers of one {@link SharedBandwidthPacer} share its rate; each pacer is a link of its own. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class SharedBandwidthPacerTest {

    private static final long RATE = 100_000_000L;
    private static final int CHUNK = 65_536;

    /** Four writers of 10 MB each on a 100 MB/s link need 0.4 s together (one link each would need 0.1 s). */
    @Test
    void fourWritersShareTheRate() {
        SharedBandwidthPacer link = new SharedBandwidthPacer(RATE);
        new FastestOf(WanProfileTest.ATTEMPTS)
                .assertWithin(Duration.ofMillis(395), Duration.ofMillis(1200), () -> writers(4, () -> link));
    }

    /** The same four writers on four pacers take a quarter of the time: the sharing is the pacer's, not the test's. */
    @Test
    void separatePacersDoNotShare() {
        new FastestOf(WanProfileTest.ATTEMPTS)
                .assertWithin(
                        Duration.ofMillis(95),
                        Duration.ofMillis(300),
                        () -> writers(4, () -> new SharedBandwidthPacer(RATE)));
    }

    @Test
    void rejectsARateThatIsNotPositive() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SharedBandwidthPacer(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bytesPerSecond must be positive, was 0");
    }

    private static Duration writers(int count, java.util.function.Supplier<SharedBandwidthPacer> pacers) {
        long start = System.nanoTime();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            SharedBandwidthPacer pacer = pacers.get();
            all.add(CompletableFuture.runAsync(
                    () -> {
                        try {
                            for (long sent = 0; sent < 10_000_000L; sent += CHUNK) {
                                pacer.pace(CHUNK);
                            }
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    },
                    runnable -> new Thread(runnable).start()));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .orTimeout(30, TimeUnit.SECONDS)
                .join();
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
