package dev.flinks3.bench.fsbench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class CpuProfileTest {

    private static final String SPIN = CpuProfileTest.class.getName() + ".spin";
    private static final String SPIN_CALLER = CpuProfileTest.class.getName() + ".spinFor";
    private static final String BUSY_ELSEWHERE = CpuProfileTest.class.getName() + ".busyElsewhereFor";

    @TempDir
    Path dir;

    /** Keeps the result of the busy loop reachable, so the JIT cannot drop the loop. */
    private static volatile long sink;

    @Test
    void aBusyMethodIsOnTopOfItsSamplesAndItsCallerOnTheirStacks() throws IOException {
        Path jfr = dir.resolve("spin.jfr");
        Instant from;
        Instant to;
        try (Recording recording = new Recording()) {
            recording
                    .enable("jdk.ExecutionSample")
                    .withPeriod(Duration.ofMillis(1))
                    .withStackTrace();
            recording.start();
            // after the window: busy in another method
            from = Instant.now();
            spinFor(Duration.ofMillis(800));
            to = Instant.now();
            busyElsewhereFor(Duration.ofMillis(300));
            recording.stop();
            recording.dump(jfr);
        }

        CpuProfile profile = CpuProfile.read(jfr, from, to);
        assertThat(profile.totalSamples(BUSY_ELSEWHERE))
                .as("samples after the window are left out")
                .isZero();
        assertThat(CpuProfile.read(jfr, Instant.MIN, Instant.MAX).totalSamples(BUSY_ELSEWHERE))
                .as("and counted in a window that holds them")
                .isPositive();

        assertThat(profile.samples()).isPositive();
        assertThat(profile.selfSamples(SPIN))
                .as("self samples of the busy loop")
                .isPositive();
        assertThat(profile.selfSamples(SPIN_CALLER)).as("the caller only calls").isLessThan(profile.selfSamples(SPIN));
        assertThat(profile.totalSamples(SPIN_CALLER))
                .as("the caller is on the stack of every sample of the loop")
                .isGreaterThanOrEqualTo(profile.selfSamples(SPIN));
        assertThat(profile.selfByLayer()).containsKey("benchmark");
        String markdown = profile.markdown("spin", 4, 1.0, java.util.Map.of("main", 0.8, "C2 CompilerThre#", 0.2));
        assertThat(markdown)
                .startsWith("### spin\n")
                .contains("CPU of all threads: 1.000 s, 250.000 ms per operation")
                .contains("| main | 0.800 | 80.0% |")
                .contains("ms per operation over 4 operations")
                .contains("| " + SPIN + " | benchmark |");
        assertThat(profile.markdown("spin", 0, 1.0, java.util.Map.of()))
                .as("without thread times")
                .doesNotContain("CPU of all threads")
                .doesNotContain("per operation");
    }

    @Test
    void shadedLibrariesCountAsTheLibraryTheyCopy() {
        assertThat(CpuProfile.layerOf("org.apache.flink.fs.s3base.shaded.com.amazonaws.http.AmazonHttpClient.execute"))
                .isEqualTo("AWS SDK v1");
        assertThat(CpuProfile.layerOf("dev.flinks3.shaded.io.netty.buffer.PooledByteBuf.getBytes"))
                .isEqualTo("Netty");
        assertThat(CpuProfile.layerOf(
                        "dev.flinks3.shaded.org.apache.hc.core5.http.impl.io.AbstractMessageParser.parseHeaders"))
                .isEqualTo("Apache HttpClient");
        assertThat(CpuProfile.layerOf("dev.flinks3.transfer.read.RangeReader.read"))
                .isEqualTo("ours");
        assertThat(CpuProfile.layerOf("sun.security.ssl.SSLSocketImpl.read")).isEqualTo("JDK TLS and crypto");
        assertThat(CpuProfile.layerOf("java.io.InputStream.read")).isEqualTo("JDK");
        assertThat(CpuProfile.layerOf("Foo.bar")).isEqualTo("other");
    }

    @Test
    void aFileThatIsNoRecordingIsAnError() throws IOException {
        Path notJfr = Files.writeString(dir.resolve("not.jfr"), "not a recording");

        assertThatThrownBy(() -> CpuProfile.read(notJfr, Instant.MIN, Instant.MAX))
                .isInstanceOf(IOException.class);
    }

    private static void spinFor(Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < end) {
            sink += spin(sink);
        }
    }

    private static void busyElsewhereFor(Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < end) {
            sink += spin(sink + 1);
        }
    }

    private static long spin(long seed) {
        long x = seed;
        for (int i = 0; i < 100_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }
}
