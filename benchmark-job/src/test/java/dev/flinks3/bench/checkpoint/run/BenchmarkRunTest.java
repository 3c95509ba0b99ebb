package dev.flinks3.bench.checkpoint.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.LargeStateGeneratorJob;
import dev.flinks3.bench.checkpoint.local.LocalFlinkCluster;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.RunResult;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.core.plugin.PluginUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The whole run on a MiniCluster with checkpoints on the local filesystem: the job reaches its
 * records, checkpoints, is cancelled, and the restore at another parallelism verifies the state.
 */
class BenchmarkRunTest {

    @TempDir
    Path work;

    @Test
    void checkpointsThenRestoresAtAnotherParallelismWithVerifiedState() throws Exception {
        JobParameters parameters = new JobParameters();
        new CommandLine(parameters)
                .parseArgs(
                        "--numKeys",
                        "300",
                        "--valueSizeKb",
                        "4",
                        "--recordsPerSecond",
                        "400",
                        "--duration",
                        "3s",
                        "--checkpointInterval",
                        "500ms",
                        "--minPause",
                        "100ms",
                        "--parallelism",
                        "2");
        Configuration conf = new Configuration();
        conf.set(CoreOptions.TMP_DIRS, work.resolve("tmp").toString());
        PluginManager plugins = PluginUtils.createPluginManagerFromRootFolder(conf);
        FileSystem.initialize(conf, plugins);
        List<String> lines = new ArrayList<>();
        List<String> phases = new ArrayList<>();
        RunResult result;
        try (LocalFlinkCluster cluster = LocalFlinkCluster.start(conf, 2, MemorySize.ofMebiBytes(128), plugins)) {
            JobLauncher launcher = new JobLauncher(
                    cluster.environments(),
                    LargeStateGeneratorJob.configuration(
                            parameters, work.resolve("checkpoints").toUri().toString()),
                    parameters);
            result = new BenchmarkRun(
                            launcher, new FlinkRestClient(cluster.restAddress()), RunEvents.of(lines::add, phases::add))
                    .run(1);
        }

        assertThat(result.recordsProcessed()).isEqualTo(1200);
        assertThat(result.keysCreated()).isEqualTo(300);
        assertThat(result.checkpoints()).anyMatch(CheckpointStats::completed);
        assertThat(result.checkpoints())
                .allSatisfy(c -> assertThat(c.vertices()).isNotEmpty());
        assertThat(result.restore().verified()).as(String.join("\n", lines)).isTrue();
        assertThat(result.restore().verifiedKeys()).isEqualTo(300);
        assertThat(result.restore().parallelism()).isEqualTo(1);
        assertThat(phases)
                .containsExactly(
                        RunEvents.CHECKPOINTING_START,
                        RunEvents.CHECKPOINTING_END,
                        RunEvents.RESTORE_START,
                        RunEvents.RESTORE_RUNNING);
        assertThat(lines).anyMatch(l -> l.startsWith("checkpoint ") && l.contains("MB/s"));
    }
}
