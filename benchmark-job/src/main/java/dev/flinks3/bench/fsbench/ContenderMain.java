package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.PluginInfo;
import dev.flinks3.bench.common.ProcessMeter;
import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import dev.flinks3.bench.fsbench.workloads.PatternData;
import dev.flinks3.bench.fsbench.workloads.WorkloadContext;
import dev.flinks3.bench.fsbench.workloads.WorkloadTask;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.plugin.PluginUtils;

/**
 * The JVM of one contender: loads the only plugin in {@code $FLINK_PLUGINS_DIR} the way a Flink
 * process does ({@code FileSystem.initialize(config, PluginUtils.createPluginManagerFromRootFolder(config))}),
 * runs the workloads of a {@link ContenderTask} and reports each through {@link ChildEvent}s.
 *
 * <pre>FLINK_PLUGINS_DIR=plugins/ours java -cp ... dev.flinks3.bench.fsbench.ContenderMain task.json</pre>
 *
 * Started by {@link ContenderProcess}; not meant to be run by hand.
 */
public final class ContenderMain {

    private final ContenderTask task;
    private final PrintStream protocol;
    private final BufferedReader answers;
    /** With {@code --cpu-profile}, the recording from before the JIT warm-up on; else null. */
    private CpuRecording recording;

    private ContenderMain(ContenderTask task, PrintStream protocol, BufferedReader answers) {
        this.task = task;
        this.protocol = protocol;
        this.answers = answers;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ContenderMain <task.json>");
        }
        // Protocol lines alone on standard output: anything a library prints goes to the log instead.
        PrintStream protocol = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        ContenderTask task = Json.read(java.nio.file.Path.of(args[0]), ContenderTask.class);
        BufferedReader answers = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int exitCode = 0;
        try {
            new ContenderMain(task, protocol, answers).run();
        } catch (IOException | RuntimeException e) {
            e.printStackTrace();
            exitCode = 1;
        }
        // Some plugins keep non-daemon threads (executors, connection reapers) after their last stream.
        System.exit(exitCode);
    }

    private void run() throws IOException {
        FileSystem fs;
        Path root = new Path("s3://" + task.bucket() + "/fsbench");
        try {
            Configuration configuration = Configuration.fromMap(task.flinkConfiguration());
            FileSystem.initialize(configuration, PluginUtils.createPluginManagerFromRootFolder(configuration));
            fs = root.getFileSystem();
        } catch (Exception | LinkageError e) {
            e.printStackTrace();
            send(new ChildEvent(ChildEvent.Type.FAILED, null, null, Failures.summary(e)));
            return;
        }
        send(new ChildEvent(ChildEvent.Type.LOADED, null, null, PluginInfo.fileSystemClass(fs)));
        java.nio.file.Path localDir = Files.createDirectories(java.nio.file.Path.of(task.localDir()));
        PatternData data = new PatternData();
        if (!task.cpuProfileDir().isEmpty()) {
            recording = CpuRecording.start(task.cpuSamples());
        }
        if (task.jitWarmUp()) {
            FileSystem warmUpFs = fs;
            JitWarmUp.untilQuiet(
                    task.workloads(),
                    pass -> new WorkloadContext(
                            warmUpFs,
                            new Path("s3://" + task.bucket() + "/jit-warm-up/pass-" + pass),
                            data,
                            task.sizes().jitWarmUp(),
                            localDir.resolve("jit-warm-up-" + pass)),
                    System.err,
                    JitWarmUp.jvmCompilationMillis());
        }
        WorkloadContext context = new WorkloadContext(fs, root, data, task.sizes(), localDir);
        try (ProcessMeter meter = new ProcessMeter()) {
            for (FsWorkload workload : task.workloads()) {
                runWorkload(WorkloadTask.of(workload, context), workload, meter);
            }
        }
        if (recording != null) {
            recording.close();
        }
        send(ChildEvent.of(ChildEvent.Type.END, null));
    }

    private void runWorkload(WorkloadTask work, FsWorkload workload, ProcessMeter meter) throws IOException {
        String setUpFailure = "";
        try {
            work.prepare();
        } catch (Exception e) {
            e.printStackTrace();
            setUpFailure = "set-up failed: " + Failures.summary(e);
        }
        if (setUpFailure.isEmpty() && task.jitWarmUp() && workload.readsOnly()) {
            rehearse(work, workload);
        }
        // Start every workload from a collected heap, so peaks are not left-overs of the set-up.
        System.gc();
        send(ChildEvent.of(ChildEvent.Type.READY, workload));
        ClientMeasurement measurement;
        if (setUpFailure.isEmpty()) {
            measurement = measure(work, workload, meter);
        } else {
            measurement = ClientMeasurement.failed(workload, work.method(), setUpFailure);
        }
        send(new ChildEvent(ChildEvent.Type.MEASURED, workload, measurement, ""));
        String problem = "";
        if (measurement.error().isEmpty()) {
            try {
                problem = work.verify();
            } catch (Exception e) {
                e.printStackTrace();
                problem = "verification failed: " + Failures.summary(e);
            }
        }
        send(new ChildEvent(ChildEvent.Type.VERIFIED, workload, null, problem));
    }

    /**
     * Runs a read workload once untimed on the objects it is measured on, and verifies what it read, so the
     * JIT has compiled the paths of the measured sizes (offsets past the warm-up's small file, ranges past its
     * 8 MiB) before the timed run: after a warm-up whose passes ended quiet, the C2 compiler still took 1.6 s
     * of a 2.4 s timed part of 5,000 positional reads of a 2 GiB file. The timed run reads the same objects
     * again and is verified; a failure here is only logged.
     */
    private static void rehearse(WorkloadTask work, FsWorkload workload) {
        try {
            work.run();
            String problem = work.verify();
            if (!problem.isEmpty()) {
                System.err.println("Untimed run of " + workload + " read wrong bytes: " + problem);
            }
        } catch (Exception e) {
            System.err.println("Untimed run of " + workload + " failed: " + Failures.summary(e));
        }
    }

    private ClientMeasurement measure(WorkloadTask work, FsWorkload workload, ProcessMeter meter) {
        CpuRecording.Part part = recording == null ? null : recording.begin();
        meter.start();
        long start = System.nanoTime();
        try {
            WorkloadTask.Outcome outcome = work.run();
            long wallNanos = System.nanoTime() - start;
            ProcessMeter.Sample sample = meter.stop();
            if (part != null) {
                part.endAndWrite(ContenderTask.cpuProfileFile(
                        java.nio.file.Path.of(task.cpuProfileDir()), workload, task.contender(), task.round()));
            }
            return new ClientMeasurement(
                    workload,
                    wallNanos / 1e9,
                    outcome.bytes(),
                    outcome.operations(),
                    sample.cpuNanos() / 1e9,
                    sample.peakHeapBytes(),
                    sample.peakLiveHeapBytes(),
                    sample.peakDirectBytes(),
                    work.method(),
                    "");
        } catch (Exception | OutOfMemoryError e) {
            meter.stop();
            e.printStackTrace();
            return ClientMeasurement.failed(workload, work.method(), Failures.summary(e));
        }
    }

    private void send(ChildEvent event) throws IOException {
        protocol.println(event.encode());
        String answer = answers.readLine();
        if (answer == null) {
            throw new IOException("the benchmark process closed the channel after " + event.type());
        }
        if (!ChildEvent.GO.equals(answer)) {
            throw new IOException("expected " + ChildEvent.GO + " from the benchmark process, got '" + answer + "'");
        }
    }
}
