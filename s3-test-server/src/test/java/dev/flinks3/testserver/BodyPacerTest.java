package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BodyPacerTest {

    @Test
    void smallChunksStillReachTheTargetRate() throws Exception {
        // 8 KiB chunks at 50 MB/s are due every 164 us, below a park's resolution: the deadline absorbs that.
        BodyPacer pacer = new BodyPacer(50_000_000L);
        long start = System.nanoTime();
        for (int sent = 0; sent < 10_000_000; sent += 8192) {
            pacer.pace(8192);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isBetween(Duration.ofMillis(195), Duration.ofMillis(260));
    }

    @Test
    void clockStartsAtTheFirstChunkNotAtCreation() throws Exception {
        BodyPacer pacer = new BodyPacer(1_000_000L);
        Deadlines.sleepUntil(System.nanoTime() + 50_000_000L);

        long start = System.nanoTime();
        pacer.pace(50_000);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(49), Duration.ofMillis(80));
    }

    @Test
    void namedProfiles() {
        assertThat(NetworkProfile.named("WAN")).isSameAs(NetworkProfile.WAN);
        assertThat(NetworkProfile.named("lan").isUnlimited()).isTrue();
        assertThat(NetworkProfile.WAN.latency()).isEqualTo(Duration.ofMillis(20));
        assertThat(NetworkProfile.WAN.bytesPerSecond()).isEqualTo(50_000_000L);
    }
}
