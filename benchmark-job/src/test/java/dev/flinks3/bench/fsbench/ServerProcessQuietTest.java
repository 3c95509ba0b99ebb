package dev.flinks3.bench.fsbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ServerProcess#awaitQuiet}: its decision on a made-up process whose CPU per window and clock are given (a
 * real spinning process gets a core only when the machine has one free, so its waits depend on the load), and once
 * on a real idle process read from {@code /proc}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServerProcessQuietTest {

    private static final double WINDOW_SECONDS = ServerProcess.QUIET_WINDOW.toNanos() / 1e9;

    /** A process that used {@code cpuPerWindow} seconds in its successive windows, and then nothing. */
    private static ServerProcess.Quiet awaitQuietOf(Duration limit, List<Double> cpuPerWindow)
            throws InterruptedException {
        ArrayDeque<Double> cpu = new ArrayDeque<>(cpuPerWindow);
        long[] clock = {0};
        return ServerProcess.awaitQuiet(
                () -> cpu.isEmpty() ? 0.0 : cpu.poll(), () -> clock[0], window -> clock[0] += window.toNanos(), limit);
    }

    @Test
    void waitsUntilTheProcessStopsSpinning() throws Exception {
        double spinning = WINDOW_SECONDS; // a whole core
        ServerProcess.Quiet quiet = awaitQuietOf(Duration.ofSeconds(20), List.of(spinning, spinning, spinning));

        assertThat(quiet.quiet()).isTrue();
        assertThat(quiet.waited()).isEqualTo(ServerProcess.QUIET_WINDOW.multipliedBy(4));
    }

    @Test
    void aProcessJustAboveTheShareIsNotQuiet() throws Exception {
        double above = ServerProcess.QUIET_SHARE * WINDOW_SECONDS * 1.1;
        double below = ServerProcess.QUIET_SHARE * WINDOW_SECONDS * 0.9;

        assertThat(awaitQuietOf(Duration.ofSeconds(20), List.of(above)).waited())
                .isEqualTo(ServerProcess.QUIET_WINDOW.multipliedBy(2));
        assertThat(awaitQuietOf(Duration.ofSeconds(20), List.of(below)).waited())
                .isEqualTo(ServerProcess.QUIET_WINDOW);
    }

    @Test
    void givesUpAtTheLimitWhileTheProcessSpins() throws Exception {
        ServerProcess.Quiet quiet = awaitQuietOf(Duration.ofSeconds(1), Collections.nCopies(100, 0.2));

        assertThat(quiet.quiet()).isFalse();
        assertThat(quiet.waited()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void anIdleRealProcessIsQuietAfterOneWindow() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc for per-thread CPU");
        Process process = new ProcessBuilder("sleep", "30").start();
        try {
            ServerProcess.Quiet quiet = ServerProcess.awaitQuiet(process.pid(), Duration.ofSeconds(20));

            assertThat(quiet.quiet()).isTrue();
            assertThat(quiet.waited()).isLessThan(Duration.ofSeconds(2));
        } finally {
            process.destroyForcibly();
        }
    }
}
