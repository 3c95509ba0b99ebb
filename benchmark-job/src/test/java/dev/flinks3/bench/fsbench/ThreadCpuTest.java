package dev.flinks3.bench.fsbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ThreadCpu} counts a thread's time on a CPU under its group of names, and loses the time of a thread that
 * ended between two snapshots. Asserts what the snapshots see against the thread's own CPU clock, never against a
 * window of wall-clock time.
 */
@Timeout(60)
class ThreadCpuTest {

    private static volatile long sink;

    @Test
    void aBusyThreadsTimeIsCountedUnderItsGroup() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc");
        ThreadCpu before = ThreadCpu.snapshot();
        Thread busy = new Thread(
                () -> {
                    long x = 1;
                    for (int i = 0; i < 10_000_000; i++) {
                        x = x * 31 + 7;
                    }
                    sink = x;
                },
                "busy-17");
        busy.start();
        busy.join();
        // Threads alive at the second snapshot only: the busy one ended, so measure one that stays (this one).
        Map<String, Double> seconds = ThreadCpu.snapshot().since(before);

        assertThat(seconds).as("an ended thread's time is lost").doesNotContainKey("busy-#");

        // This thread works until its own CPU clock (the JVM's, the same kernel counter schedstat shows) has
        // advanced 100 ms, however long that takes on a loaded machine; the snapshots must see at least half of it
        // (schedstat of a running thread may lag by the slice it is in).
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        ThreadCpu start = ThreadCpu.snapshot();
        long cpuStart = mx.getCurrentThreadCpuTime();
        long x = 1;
        while (mx.getCurrentThreadCpuTime() - cpuStart < 100_000_000L) {
            for (int i = 0; i < 10_000; i++) {
                x = x * 31 + 7;
            }
        }
        sink = x;
        Map<String, Double> mine = ThreadCpu.snapshot().since(start);
        String group = ThreadCpu.group(
                Files.readString(Path.of("/proc/thread-self/comm")).trim());
        assertThat(mine.get(group)).as("%s in %s", group, mine).isGreaterThanOrEqualTo(0.05);
    }

    @Test
    void digitsInANameBecomeOneGroup() {
        assertThat(ThreadCpu.group("sdk-async-response-1-12")).isEqualTo("sdk-async-response-#-#");
        assertThat(ThreadCpu.group("C2 CompilerThre")).isEqualTo("C2 CompilerThre");
        assertThat(ThreadCpu.group("pool-12-thread-3")).isEqualTo("pool-#-thread-#");
        assertThat(ThreadCpu.group("GC Thread#3")).isEqualTo("GC Thread##");
    }
}
