package dev.flinks3.bench.checkpoint.local;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.LargeStateGeneratorJob;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.PluginMBeans;
import dev.flinks3.bench.checkpoint.results.PluginMetrics;
import dev.flinks3.bench.checkpoint.results.RunResult;
import dev.flinks3.bench.checkpoint.run.BenchmarkRun;
import dev.flinks3.bench.checkpoint.run.JobLauncher;
import dev.flinks3.bench.checkpoint.run.RunEvents;
import dev.flinks3.bench.checkpoint.run.RunOutcome;
import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.PluginInfo;
import dev.flinks3.bench.common.ProcessMeter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import javax.management.JMException;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.core.plugin.PluginUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * One contender's run, in a JVM of its own started by {@link ContenderJvm}: loads the only plugin under
 * {@code $FLINK_PLUGINS_DIR} as a Flink process does
 * ({@code FileSystem.initialize(config, PluginUtils.createPluginManagerFromRootFolder(config))}),
 * starts a MiniCluster, runs the {@link BenchmarkRun} and writes a {@link ContenderResult} as JSON, with
 * the plugin's own metrics when it publishes them ({@link PluginMBeans}, read in this JVM at the end).
 * Standard output carries the run's lines and {@value #PHASE_PREFIX} markers; everything else
 * (Flink's logging) goes to standard error.
 */
@Command(
        name = "run-contender",
        hidden = true,
        description = "Runs the job for one plugin in this JVM (started by local and compare).")
public final class RunContenderCommand implements Callable<Integer> {

    /** Prefix of the phase marker lines on standard output. */
    static final String PHASE_PREFIX = "@@phase ";

    @Mixin
    JobParameters job = new JobParameters();

    @Mixin
    ContenderJvmOptions run = new ContenderJvmOptions();

    /** The plugin as far as it loaded; set by {@link #call()}. */
    private PluginInfo plugin;

    @Override
    public Integer call() throws Exception {
        job.validate();
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        RunEvents events = RunEvents.of(out::println, phase -> out.println(PHASE_PREFIX + phase));
        ProcessMeter meter = new ProcessMeter();
        meter.start();
        Configuration conf = configuration();
        plugin = PluginInfo.notLoaded(run.contender(), run.pluginJar());
        RunOutcome outcome = RunOutcome.of(() -> loadAndRun(conf, events));
        if (outcome.failed()) {
            events.line("FAILED: " + outcome.error());
        }
        ProcessMeter.Sample jvm = meter.stop();
        meter.close();
        Json.write(
                run.resultFile(),
                new ContenderResult(
                        plugin,
                        run.round(),
                        outcome.run(),
                        outcome.error(),
                        jvm.cpuNanos() / 1e9,
                        jvm.peakHeapBytes(),
                        Map.of(),
                        0,
                        pluginMetrics(events)));
        return outcome.failed() ? 1 : 0;
    }

    /** Loads the plugin as a Flink process does, notes what it is, and runs the job on a MiniCluster. */
    private RunResult loadAndRun(Configuration conf, RunEvents events) throws Exception {
        PluginManager plugins = PluginUtils.createPluginManagerFromRootFolder(conf);
        FileSystem.initialize(conf, plugins);
        plugin = PluginInfo.loaded(run.contender(), run.pluginJar(), run.checkpointDirectory());
        events.line("plugin " + plugin.jar() + " " + plugin.version() + ": "
                + run.checkpointDirectory().getScheme() + ":// served by " + plugin.fileSystemClass());
        return runOnMiniCluster(conf, plugins, events);
    }

    /** The plugin's own metrics after the run, or null if it has none (or they cannot be read, said on a line). */
    private static PluginMetrics pluginMetrics(RunEvents events) {
        try {
            return PluginMBeans.platform().read();
        } catch (JMException | RuntimeException e) {
            events.line("could not read the plugin's metrics MBeans: " + e);
            return null;
        }
    }

    private RunResult runOnMiniCluster(Configuration conf, PluginManager plugins, RunEvents events) throws Exception {
        int slots = Math.max(job.parallelism(), run.restoreParallelism());
        try (LocalFlinkCluster cluster =
                LocalFlinkCluster.start(conf, slots, MemorySize.parse(run.managedMemory()), plugins)) {
            events.line("Flink REST API: " + cluster.restAddress());
            JobLauncher launcher = new JobLauncher(
                    cluster.environments(),
                    LargeStateGeneratorJob.configuration(
                            job, run.checkpointDirectory().toString()),
                    job);
            return new BenchmarkRun(launcher, new FlinkRestClient(cluster.restAddress()), events)
                    .run(run.restoreParallelism());
        }
    }

    private Configuration configuration() throws IOException {
        Configuration conf = Configuration.fromMap(run.flinkEntries());
        conf.set(CoreOptions.TMP_DIRS, run.tmpDir().toAbsolutePath().toString());
        return conf;
    }
}
