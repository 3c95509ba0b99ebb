package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.common.ChildJvm;
import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.ServerTraffic;
import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs one contender's {@link ContenderTask} in its own JVM ({@link ContenderMain}) with a plugins
 * folder holding only its jar, and brackets each timed part with the S3 server's counters: the
 * server is read when the contender says READY and again when it says MEASURED, before the
 * contender may go on. With the task's JIT warm-up, the contender waits after READY until the server is quiet
 * ({@link ServerProcess#awaitQuiet}); with its CPU profile, the server's CPU per thread group over the timed part
 * is written beside the contender's ({@link #serverThreadsFile}).
 */
final class ContenderProcess {

    /**
     * What one contender JVM did.
     *
     * @param fileSystemClass the plugin's filesystem class, empty if it did not load
     * @param results one result per workload of the task, failed ones included
     */
    record Outcome(String fileSystemClass, List<WorkloadResult> results) {}

    private static final String EOF = "\u0000EOF";

    /** Where the S3 server's CPU seconds per thread group over the part recorded in {@code jfr} are written. */
    static Path serverThreadsFile(Path jfr) {
        return jfr.resolveSibling(jfr.getFileName() + ".server.json");
    }

    private final ChildJvm jvm;
    private final ServerProcess server;
    private final Duration eventTimeout;

    /**
     * @param eventTimeout the longest a contender may stay silent (one set-up, timed part or check)
     */
    ContenderProcess(ChildJvm jvm, ServerProcess server, Duration eventTimeout) {
        this.jvm = jvm;
        this.server = server;
        this.eventTimeout = eventTimeout;
    }

    /**
     * Runs the task to its end; never throws for a contender's failure, which is reported in the
     * results instead.
     *
     * @param pluginsDir the plugins root folder with one subfolder holding the contender's jar
     * @param workDir where the task file and the contender's log are written
     */
    Outcome run(ContenderTask task, Path pluginsDir, List<String> jvmOptions, Path workDir)
            throws IOException, InterruptedException {
        String name = task.contender() + (task.round() == 0 ? "-warm-up" : "-round-" + task.round());
        Path taskFile = workDir.resolve(name + ".json");
        Path log = workDir.resolve(name + ".log");
        Json.write(taskFile, task);
        Process process = jvm.startContender(
                ContenderMain.class.getName(), jvmOptions, List.of(taskFile.toString()), pluginsDir, log);
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> pump(process, lines), "contender-stdout-" + name);
        reader.setDaemon(true);
        reader.start();
        Conversation conversation = new Conversation(task);
        try (PrintStream answers = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8)) {
            while (!conversation.finished()) {
                String line = lines.poll(eventTimeout.toMillis(), TimeUnit.MILLISECONDS);
                if (line == null) {
                    process.destroyForcibly();
                    conversation.abort(
                            "no word from the contender for " + eventTimeout.toMinutes() + " min; see " + log);
                } else if (line.equals(EOF)) {
                    process.waitFor(10, TimeUnit.SECONDS);
                    conversation.abort(
                            "the contender JVM exited" + (process.isAlive() ? "" : " with code " + process.exitValue())
                                    + " before finishing; see " + log);
                } else {
                    ChildEvent event = ChildEvent.decode(line);
                    if (event != null) {
                        conversation.take(event);
                        answers.println(ChildEvent.GO);
                    }
                }
            }
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        return new Outcome(conversation.fileSystemClass, conversation.results);
    }

    private static void pump(Process process, BlockingQueue<String> lines) {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // The process is gone; the end marker below tells the conversation.
        } finally {
            lines.add(EOF);
        }
    }

    /** The state of one contender's event sequence. Used by one thread. */
    private final class Conversation {
        private final ContenderTask task;
        private final Set<FsWorkload> pending;
        private final List<WorkloadResult> results = new ArrayList<>();
        private String fileSystemClass = "";
        private ServerTraffic before;
        private ServerTraffic during;
        private ServerProcess.Quiet quiet;
        private ThreadCpu serverThreads;
        private ClientMeasurement measurement;
        private boolean finished;

        Conversation(ContenderTask task) {
            this.task = task;
            this.pending = new LinkedHashSet<>(task.workloads());
        }

        boolean finished() {
            return finished;
        }

        void take(ChildEvent event) throws IOException, InterruptedException {
            switch (event.type()) {
                case LOADED -> fileSystemClass = event.text();
                case FAILED -> abort("the plugin did not load: " + event.text());
                case READY -> {
                    quiet = task.jitWarmUp() ? server.awaitQuiet() : null;
                    serverThreads = task.cpuProfileDir().isEmpty() ? null : server.threads();
                    before = server.traffic();
                }
                case MEASURED -> {
                    during = server.traffic().minus(before);
                    if (serverThreads != null) {
                        Path jfr = ContenderTask.cpuProfileFile(
                                Path.of(task.cpuProfileDir()), event.workload(), task.contender(), task.round());
                        Json.write(serverThreadsFile(jfr), server.threads().since(serverThreads));
                    }
                    measurement = event.measurement();
                }
                case VERIFIED -> {
                    results.add(WorkloadResult.of(
                            task.contender(), task.round(), measurement, during, quiet, event.text()));
                    pending.remove(event.workload());
                }
                case END -> abort("the contender ended before running this workload");
            }
        }

        /** Marks every workload not reported yet as failed for {@code reason} and ends the conversation. */
        void abort(String reason) {
            for (FsWorkload workload : pending) {
                ClientMeasurement failed = ClientMeasurement.failed(workload, "", reason);
                results.add(WorkloadResult.of(task.contender(), task.round(), failed, ServerTraffic.NONE, null, ""));
            }
            pending.clear();
            finished = true;
        }
    }
}
