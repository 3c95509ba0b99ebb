package dev.flinks3.bench.fsbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ServerProcess#awaitQuiet} on real processes: a shell that spins a core in its own process (bash builtins
 * only) for two to three seconds and then sleeps, one that keeps spinning, and one that only sleeps.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServerProcessQuietTest {

    @BeforeEach
    void needsProc() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc for per-thread CPU");
    }

    @Test
    void waitsUntilTheProcessStopsSpinning() throws Exception {
        ServerProcess.Quiet quiet =
                awaitQuietOf(Duration.ofSeconds(20), "bash", "-c", "while [ $SECONDS -lt 3 ]; do :; done; sleep 30");

        assertThat(quiet.quiet()).isTrue();
        assertThat(quiet.waited()).isGreaterThan(Duration.ofMillis(1500));
    }

    @Test
    void givesUpAtTheLimitWhileTheProcessSpins() throws Exception {
        ServerProcess.Quiet quiet = awaitQuietOf(Duration.ofSeconds(1), "bash", "-c", "while :; do :; done");

        assertThat(quiet.quiet()).isFalse();
        assertThat(quiet.waited()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void anIdleProcessIsQuietAfterOneWindow() throws Exception {
        ServerProcess.Quiet quiet = awaitQuietOf(Duration.ofSeconds(20), "sleep", "30");

        assertThat(quiet.quiet()).isTrue();
        assertThat(quiet.waited()).isLessThan(Duration.ofSeconds(2));
    }

    /** Starts {@code command}, waits for it to be quiet (at most {@code limit}), and kills it. */
    private static ServerProcess.Quiet awaitQuietOf(Duration limit, String... command) throws Exception {
        Process process = new ProcessBuilder(command).start();
        try {
            return ServerProcess.awaitQuiet(process.pid(), limit);
        } finally {
            process.destroyForcibly();
        }
    }
}
