package dev.flinks3.bench.checkpoint.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.cluster.RemoteJobReader;
import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.LargeStateGeneratorJob;
import dev.flinks3.bench.checkpoint.job.source.SequenceSource.AfterLastRecord;
import dev.flinks3.bench.checkpoint.local.LocalFlinkCluster;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.PluginMetrics;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
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
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A report of a cluster run ({@code report --rest-url}) has the plugin's own metrics too: the job carries
 * each TaskManager's plugin MBeans as accumulators, which Flink's REST API keeps after the job finished.
 * The job checkpoints to {@code s3://} of an embedded server through our shaded plugin jar, loaded from a
 * plugins folder as a TaskManager loads it.
 */
class ClusterReportPluginMetricsIT {

    private static final String BUCKET = "cluster-report";

    @TempDir
    Path work;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theReportReadFromRestHasTheTaskManagersPluginMetrics() throws Exception {
        JobParameters parameters = new JobParameters();
        new CommandLine(parameters)
                .parseArgs(
                        "--numKeys",
                        "200",
                        "--valueSizeKb",
                        "8",
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
        ContenderResult result;
        try (EmbeddedS3Server server = EmbeddedS3Server.builder()
                .baseDir(work.resolve("s3"))
                .bucket(BUCKET)
                .start()) {
            Configuration conf = OurPlugin.s3Configuration(server);
            conf.set(CoreOptions.TMP_DIRS, work.resolve("tmp").toString());
            PluginManager plugins = OurPlugin.inPluginsFolder(work, conf);
            FileSystem.initialize(conf, plugins);
            try (LocalFlinkCluster cluster = LocalFlinkCluster.start(conf, 2, MemorySize.ofMebiBytes(128), plugins)) {
                StreamExecutionEnvironment env = cluster.environments()
                        .apply(LargeStateGeneratorJob.configuration(parameters, "s3://" + BUCKET + "/cluster-run"));
                LargeStateGeneratorJob.addTo(env, parameters, 2, AfterLastRecord.FINISH);
                JobClient job = env.executeAsync(LargeStateGeneratorJob.JOB_NAME);
                Awaitility.await()
                        .atMost(Duration.ofMinutes(2))
                        .until(() -> job.getJobStatus().get() == JobStatus.FINISHED);
                List<String> lines = new ArrayList<>();
                result = new RemoteJobReader(
                                new FlinkRestClient(cluster.restAddress()),
                                job.getJobID().toString())
                        .read("cluster", lines::add);
            }
            PluginMetrics plugin = result.pluginMetrics();
            assertThat(plugin).as("plugin metrics from the job's accumulators").isNotNull();
            long writesSeen = server.requestLog()
                            .entries(RequestKind.PUT_OBJECT)
                            .size()
                    + server.requestLog().entries(RequestKind.UPLOAD_PART).size();
            assertThat(writesSeen).isPositive();
            assertThat(plugin.requests()).isPositive();
            assertThat(plugin.bytesUploaded()).isPositive();
            assertThat(plugin.peakBufferedBytes()).isPositive();
            assertThat(plugin.requestsByOperation()).containsKey("PutObject");
            assertThat(plugin.requestsByOperation().get("PutObject"))
                    .as("PutObject requests the TaskManager's plugin counted, of those the server saw")
                    .isPositive()
                    .isLessThanOrEqualTo(
                            server.requestLog().entries(RequestKind.PUT_OBJECT).size());
        }
    }
}
