package dev.flinks3.bench.fsbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ServerProcess#awaitQuiet} on real processes: a shell that spins a core in its own process (bash builtins
 * only) for two to three seconds and then sleeps, one that keeps spinning, and one that only sleeps.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServerProcessQuietTest {

    @Test
    void waitsUntilTheProcessStopsSpinning() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc for per-thread CPU");
        Process process = new ProcessBuilder("bash", "-c", "while [ $SECONDS -lt 3 ]; do :; done; sleep 30").start();
        try {
            ServerProcess.Quiet quiet = ServerProcess.awaitQuiet(process.pid(), Duration.ofSeconds(20));

            assertThat(quiet.quiet()).isTrue();
            assertThat(quiet.waited()).isGreaterThan(Duration.ofMillis(1500));
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void givesUpAtTheLimitWhileTheProcessSpins() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc for per-thread CPU");
        Process process = new ProcessBuilder("bash", "-c", "while :; do :; done").start();
        try {
            ServerProcess.Quiet quiet = ServerProcess.awaitQuiet(process.pid(), Duration.ofSeconds(1));

            assertThat(quiet.quiet()).isFalse();
            assertThat(quiet.waited()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void anIdleProcessIsQuietAfterOneWindow() throws Exception {
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
