package dev.flinks3.bench.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where a benchmark's processes run: the S3 server on a core of its own and the contenders on the
 * others, so the server's work (request parsing, signature checks, hashing and writing bodies) is not
 * taken from the client being measured, and a client that costs more CPU cannot hide it behind the
 * server's share of the same cores. Uses Linux's {@code taskset} (util-linux); on a machine with one
 * core, without {@code taskset}, or when switched off, nothing is pinned and {@link #describe()} says why.
 *
 * <p>With {@code n} cores the server gets the last one and the contenders cores {@code 0..n-2}. Immutable.
 */
public final class CpuPinning {

    private static final Path TASKSET = Path.of("/usr/bin/taskset");

    private final String serverCpus;
    private final String clientCpus;
    private final String reason;

    private CpuPinning(String serverCpus, String clientCpus, String reason) {
        this.serverCpus = serverCpus;
        this.clientCpus = clientCpus;
        this.reason = reason;
    }

    /**
     * Pinning for this machine.
     *
     * @param enabled false to pin nothing (the benchmark's {@code --pin-cpus=false})
     */
    public static CpuPinning forThisMachine(boolean enabled) {
        return of(enabled, Runtime.getRuntime().availableProcessors(), Files.isExecutable(TASKSET));
    }

    static CpuPinning of(boolean enabled, int cpus, boolean hasTaskset) {
        if (!enabled) {
            return new CpuPinning(null, null, "not pinned (--pin-cpus=false)");
        }
        if (cpus < 2) {
            return new CpuPinning(null, null, "not pinned: one core");
        }
        if (!hasTaskset) {
            return new CpuPinning(null, null, "not pinned: no " + TASKSET);
        }
        String client = cpus == 2 ? "0" : "0-" + (cpus - 2);
        return new CpuPinning(Integer.toString(cpus - 1), client, null);
    }

    /** True if processes are pinned. */
    public boolean pinned() {
        return reason == null;
    }

    /**
     * The words in front of a contender's {@code java} command ({@code taskset -c 0}), empty when
     * nothing is pinned.
     */
    public List<String> clientCommandPrefix() {
        return prefix(clientCpus);
    }

    /** As {@link #clientCommandPrefix()}, for a server started as a process of its own. */
    public List<String> serverCommandPrefix() {
        return prefix(serverCpus);
    }

    /**
     * Pins every thread of this process to the server's core: for a benchmark whose S3 server runs in
     * the process that starts the contenders. Threads started later inherit it. Does nothing when
     * nothing is pinned.
     *
     * @throws IOException if {@code taskset} fails
     */
    public void pinThisProcessAsServer() throws IOException, InterruptedException {
        if (!pinned()) {
            return;
        }
        List<String> command = List.of(
                TASKSET.toString(),
                "-a",
                "-p",
                "-c",
                serverCpus,
                Long.toString(ProcessHandle.current().pid()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output.trim());
        }
    }

    /** One sentence for a report: which cores the server and the contenders ran on, or why not pinned. */
    public String describe() {
        return pinned()
                ? "S3 server pinned to CPU " + serverCpus + ", contenders to CPU " + clientCpus + " (taskset)"
                : reason;
    }

    private List<String> prefix(String cpus) {
        return pinned() ? List.of(TASKSET.toString(), "-c", cpus) : List.of();
    }

    @Override
    public String toString() {
        return describe();
    }
}
