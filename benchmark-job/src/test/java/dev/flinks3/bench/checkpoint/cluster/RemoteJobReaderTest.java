package dev.flinks3.bench.checkpoint.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.LargeStateGeneratorJob;
import dev.flinks3.bench.checkpoint.job.source.SequenceSource.AfterLastRecord;
import dev.flinks3.bench.checkpoint.local.LocalFlinkCluster;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The job as a cluster runs it on its own (the source ends, the job finishes after its final
 * checkpoint), and a report read afterwards from the JobManager's REST API alone.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RemoteJobReaderTest {

    @TempDir
    Path work;

    @Test
    void readsTheCheckpointsCountersAndParametersOfAFinishedJob() throws Exception {
        JobParameters parameters = new JobParameters();
        new CommandLine(parameters)
                .parseArgs(
                        "--numKeys",
                        "200",
                        "--valueSizeKb",
                        "4",
                        "--recordsPerSecond",
                        "300",
                        "--duration",
                        "2s",
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
        ContenderResult result;
        JobParameters recorded;
        try (LocalFlinkCluster cluster = LocalFlinkCluster.start(conf, 2, MemorySize.ofMebiBytes(128), plugins)) {
            StreamExecutionEnvironment env = cluster.environments()
                    .apply(LargeStateGeneratorJob.configuration(
                            parameters, work.resolve("checkpoints").toUri().toString()));
            LargeStateGeneratorJob.addTo(env, parameters, 2, AfterLastRecord.FINISH);
            JobClient job = env.executeAsync(LargeStateGeneratorJob.JOB_NAME);
            Awaitility.await()
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> job.getJobStatus().get() == JobStatus.FINISHED);

            RemoteJobReader reader = new RemoteJobReader(
                    new FlinkRestClient(cluster.restAddress()), job.getJobID().toString());
            result = reader.read("session", lines::add);
            recorded = reader.parameters().orElseThrow();
        }

        assertThat(recorded.toArguments()).isEqualTo(parameters.toArguments());
        assertThat(result.plugin().name()).isEqualTo("session");
        assertThat(result.error()).isEmpty();
        assertThat(result.run().totalRecords()).isEqualTo(600);
        assertThat(result.run().recordsProcessed()).isEqualTo(600);
        assertThat(result.run().keysCreated()).isEqualTo(200);
        assertThat(result.run().checkpoints()).anyMatch(CheckpointStats::completed);
        // The job's start-time, on the clock of the checkpoints' trigger timestamps, comes before the first.
        assertThat(result.run().startTimestamp())
                .isPositive()
                .isLessThanOrEqualTo(result.run().checkpoints().get(0).triggerTimestamp());
        assertThat(result.run().restore()).as("started fresh").isNull();
        assertThat(lines).anyMatch(l -> l.startsWith("checkpoint ") && l.contains(" completed: "));
    }
}
