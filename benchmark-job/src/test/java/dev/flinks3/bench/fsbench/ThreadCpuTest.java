package dev.flinks3.bench.fsbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ThreadCpuTest {

    private static volatile long sink;

    @Test
    void aBusyThreadsTimeIsCountedUnderItsGroup() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc");
        ThreadCpu before = ThreadCpu.snapshot();
        Thread busy = new Thread(
                () -> {
                    long end = System.nanoTime() + 300_000_000L;
                    long x = 1;
                    while (System.nanoTime() < end) {
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
        long end = System.nanoTime() + 300_000_000L;
        long x = 1;
        ThreadCpu start = ThreadCpu.snapshot();
        while (System.nanoTime() < end) {
            x = x * 31 + 7;
        }
        sink = x;
        Map<String, Double> mine = ThreadCpu.snapshot().since(start);
        String group = ThreadCpu.group(
                Files.readString(Path.of("/proc/thread-self/comm")).trim());
        assertThat(mine.get(group)).as("%s in %s", group, mine).isBetween(0.2, 1.0);
    }

    @Test
    void digitsInANameBecomeOneGroup() {
        assertThat(ThreadCpu.group("sdk-async-response-1-12")).isEqualTo("sdk-async-response-#-#");
        assertThat(ThreadCpu.group("C2 CompilerThre")).isEqualTo("C2 CompilerThre");
        assertThat(ThreadCpu.group("pool-12-thread-3")).isEqualTo("pool-#-thread-#");
        assertThat(ThreadCpu.group("GC Thread#3")).isEqualTo("GC Thread##");
    }
}
