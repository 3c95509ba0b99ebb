package dev.flinks3.bench.checkpoint.local;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The heap the embedded S3 server needs in {@code --server-mode benchmark}, where it keeps the objects in this JVM's
 * heap, and the rerun of the command in a JVM with that heap when this one's is smaller: so {@code compare} and
 * {@code local} at 2 GiB of state need no {@code -Xmx} from the user.
 */
final class ServerHeap {

    /** Set in the JVM this class started, so it never starts another. */
    static final String RERUN_PROPERTY = "flinks3.bench.server-heap-rerun";

    private static final long GIB = 1L << 30;

    private ServerHeap() {}

    /**
     * The bytes the server stores at once for {@code job}: one run's checkpoints (incremental ones share files
     * across checkpoints, a restored job checkpoints again) and the parts of uploads in progress. Runs are
     * released when they end.
     */
    static long storedBytes(JobParameters job) {
        return 6 * job.expectedStateBytes() + GIB;
    }

    /**
     * The heap the benchmark-mode server needs for {@code job}: what it stores at once (parts joined without
     * copying, so half of {@link #storedBytes}) and 1 GiB beside it.
     */
    static long heapBytes(JobParameters job) {
        return storedBytes(job) / 2 + GIB;
    }

    /**
     * Runs this command again, the same arguments in a JVM of the same command line with {@code -Xmx} of {@link
     * #heapBytes} rounded up to whole GiB, if this JVM's maximum heap is smaller and it is not such a rerun; waits
     * for it.
     *
     * @return the rerun's exit code, or empty when this JVM's heap is enough (or its command line is unknown, when
     *     the server's own check names the {@code -Xmx} to give)
     * @throws IOException if the JVM cannot be started
     * @throws InterruptedException if interrupted while waiting (the rerun is stopped)
     */
    static OptionalInt rerunIfTooSmall(JobParameters job, PrintStream out) throws IOException, InterruptedException {
        long needed = heapBytes(job);
        if (Runtime.getRuntime().maxMemory() >= needed || Boolean.getBoolean(RERUN_PROPERTY)) {
            return OptionalInt.empty();
        }
        Optional<List<String>> command = commandWithHeap((needed + GIB - 1) / GIB);
        if (command.isEmpty()) {
            return OptionalInt.empty();
        }
        out.println("The benchmark-mode S3 server keeps the objects in this JVM's heap: it needs "
                + (needed + GIB - 1) / GIB + " GiB, the heap is at most "
                + (Runtime.getRuntime().maxMemory() >> 20) + " MiB; running the command again with that heap");
        Process rerun = new ProcessBuilder(command.get()).inheritIO().start();
        try {
            return OptionalInt.of(rerun.waitFor());
        } catch (InterruptedException e) {
            rerun.destroyForcibly();
            throw e;
        }
    }

    /** This JVM's command line with {@code -Xmx<gib>g} in place of its own and the rerun property set. */
    private static Optional<List<String>> commandWithHeap(long gib) {
        ProcessHandle.Info info = ProcessHandle.current().info();
        if (info.command().isEmpty() || info.arguments().isEmpty()) {
            return Optional.empty();
        }
        List<String> command = new ArrayList<>();
        command.add(info.command().get());
        command.add("-Xmx" + gib + "g");
        command.add("-D" + RERUN_PROPERTY + "=true");
        for (String argument : info.arguments().get()) {
            if (!argument.startsWith("-Xmx")) {
                command.add(argument);
            }
        }
        return Optional.of(command);
    }
}
