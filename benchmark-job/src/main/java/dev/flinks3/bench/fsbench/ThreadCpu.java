package dev.flinks3.bench.fsbench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * CPU time of every thread of a process (this one, or another by its pid, such as the S3 server's JVM), the
 * JVM's own included (JIT compilers, GC workers), read from Linux's {@code /proc/<pid>/task/<tid>/schedstat}
 * (time on a CPU, in ns) and {@code comm} (the thread's name, at most 15 characters; the JVM's main thread has
 * the launcher's, {@code java}). A {@link CpuRecording} takes one snapshot before and one after
 * a timed part; {@link #since} groups the difference by name with each run of digits that does not follow a
 * letter replaced by {@code #}, so a pool's threads ({@code sdk-async-response-1-0}, {@code -1-1}, ...)
 * count as one while {@code C1} and {@code C2} compilers stay apart.
 */
final class ThreadCpu {

    private static final Path OWN_TASKS = Path.of("/proc/self/task");
    private static final Pattern DIGITS = Pattern.compile("(?<![A-Za-z])[0-9]+");

    /** Nanoseconds on a CPU per thread id, with the thread's name. */
    private final Map<String, Thread> threads;

    private record Thread(String name, long cpuNanos) {}

    private ThreadCpu(Map<String, Thread> threads) {
        this.threads = threads;
    }

    /** The CPU time of each thread of this process now; empty where {@code /proc} does not tell it (not Linux). */
    static ThreadCpu snapshot() {
        return snapshot(OWN_TASKS);
    }

    /**
     * The CPU time of each thread of process {@code pid} now; empty where {@code /proc} does not tell it (not
     * Linux, or the process has ended).
     */
    static ThreadCpu snapshot(long pid) {
        return snapshot(Path.of("/proc", Long.toString(pid), "task"));
    }

    private static ThreadCpu snapshot(Path taskDir) {
        Map<String, Thread> threads = new HashMap<>();
        if (!Files.isDirectory(taskDir)) {
            return new ThreadCpu(threads);
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
            for (Path task : tasks) {
                try {
                    // schedstat: time on a CPU (ns), time waiting to run (ns), timeslices
                    String onCpu =
                            Files.readString(task.resolve("schedstat")).trim().split(" ", 2)[0];
                    String name = Files.readString(task.resolve("comm")).trim();
                    threads.put(task.getFileName().toString(), new Thread(name, Long.parseLong(onCpu)));
                } catch (IOException | RuntimeException e) {
                    // The thread ended between the listing and the read, or the kernel keeps no schedstat.
                }
            }
        } catch (IOException e) {
            return new ThreadCpu(Map.of());
        }
        return new ThreadCpu(threads);
    }

    /**
     * CPU seconds per thread group from {@code before} to this snapshot; a thread started in between counts
     * from 0, one that ended in between is missing (its time is lost).
     *
     * @return seconds by group name ({@link #group}), sorted by name; groups with no time left out
     */
    Map<String, Double> since(ThreadCpu before) {
        Map<String, Double> seconds = new TreeMap<>();
        threads.forEach((tid, now) -> {
            Thread then = before.threads.get(tid);
            long nanos = now.cpuNanos() - (then == null ? 0 : then.cpuNanos());
            if (nanos > 0) {
                seconds.merge(group(now.name()), nanos / 1e9, Double::sum);
            }
        });
        return seconds;
    }

    /** A thread name with each run of digits not after a letter replaced by {@code #}: {@code GC Thread##}. */
    static String group(String threadName) {
        return DIGITS.matcher(threadName).replaceAll("#");
    }
}
