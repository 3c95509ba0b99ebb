package dev.flinks3.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The main job as README's install section runs it, on a {@link StandaloneCluster} (a JobManager and two
 * TaskManager processes, the plugin jar from {@code plugins/}, the {@code s3.*} keys in {@code config.yaml}):
 * {@code flink run flinks3-benchmark-job.jar cluster ...} through Flink's {@code CliFrontend} (checkpoints
 * to S3Proxy in this JVM, cancel, restore, verification of the restored state), then {@code report
 * --rest-url} of the restored job, with the plugin's metrics in it. Flink version: system property
 * {@code flinks3.cluster.flink.version} (default 2.3.0).
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class ClusterMainJobTest {

    private static final String BUCKET = "flinks3-cluster";
    private static final Pattern JOB_ID = Pattern.compile("\"jid\"\\s*:\\s*\"([0-9a-f]{32})\"");

    @Test
    void mainJobRunsThroughTheCliAndReportsThePluginsMetrics() throws Exception {
        // Under target/, not a temporary folder: the processes' logs stay for a look after a failure.
        Path work = Files.createDirectories(Path.of("target", "cluster-main-job-" + System.currentTimeMillis()))
                .toAbsolutePath();
        FlinkDistribution flink = FlinkDistribution.fetch(System.getProperty("flinks3.cluster.flink.version", "2.3.0"));
        try (EmbeddedS3Server server = EmbeddedS3Server.builder()
                        .verifyTrailingChecksums(true)
                        .bucket(BUCKET)
                        .start();
                StandaloneCluster cluster = StandaloneCluster.start(
                        flink,
                        work.resolve("flink"),
                        2,
                        Map.of(
                                "s3.endpoint", server.endpoint().toString(),
                                "s3.access-key", server.accessKey(),
                                "s3.secret-key", server.secretKey(),
                                "s3.region", server.region(),
                                "s3.path-style-access", "true",
                                "execution.checkpointing.dir", "s3://" + BUCKET + "/checkpoints"))) {
            Path jar = benchmarkJar();
            Path output = work.resolve("results");
            JavaProcess run = cluster.cli(
                    "flink-run",
                    List.of(
                            "run",
                            jar.toString(),
                            "cluster",
                            "--num-keys",
                            "512",
                            "--value-size-kb",
                            "16",
                            "--target-state-gb",
                            "0.008",
                            "--records-per-second",
                            "2000",
                            "--parallelism",
                            "2",
                            "--checkpoint-interval",
                            "2s",
                            "--duration",
                            "20s",
                            "--rest-url",
                            cluster.restUrl().toString(),
                            "--output",
                            output.toString()));
            int exit = run.waitFor(Duration.ofMinutes(8));
            String log = run.log();
            System.out.println(log);
            assertThat(exit).as("flink run ... cluster; output:%n%s", log).isZero();
            assertThat(output.resolve("results.json")).exists();
            assertThat(server.requestLog().entries(RequestKind.PUT_OBJECT))
                    .as("checkpoint files written through the plugin")
                    .anySatisfy(r -> assertThat(r.key()).startsWith("checkpoints/"));

            Matcher jobs = JOB_ID.matcher(cluster.get("/jobs/overview"));
            String lastJob = null;
            while (jobs.find()) {
                lastJob = jobs.group(1);
            }
            assertThat(lastJob).as("a job on the cluster").isNotNull();
            Path report = work.resolve("report");
            JavaProcess reportRun = JavaProcess.start(
                    "report",
                    List.of(jar),
                    List.of("-Xmx256m"),
                    "dev.flinks3.bench.BenchmarkCli",
                    List.of(
                            "report",
                            "--rest-url",
                            cluster.restUrl().toString(),
                            "--job-id",
                            lastJob,
                            "--output",
                            report.toString()),
                    Map.of(),
                    work.resolve("report.log"));
            int reportExit = reportRun.waitFor(Duration.ofMinutes(2));
            assertThat(reportExit).as("report; output:%n%s", reportRun.log()).isZero();
            assertThat(Files.readString(report.resolve("report.md"))).contains("Plugin metrics");
        }
    }

    /** benchmark-job's jar (system property {@code flinks3.benchmark.jar}). */
    static Path benchmarkJar() {
        return Path.of(System.getProperty("flinks3.benchmark.jar", "../benchmark-job/target/flinks3-benchmark-job.jar"))
                .toAbsolutePath()
                .normalize();
    }
}
