package dev.flinks3.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The main job as README's install section runs it, on a {@link StandaloneCluster} (a JobManager and two
 * TaskManager processes, the plugin jar from {@code plugins/}, the {@code s3.*} keys in {@code config.yaml})
 * of each Flink version of {@link StandaloneCluster#testedVersions}: {@code flink run
 * flinks3-benchmark-job.jar cluster ...} through Flink's {@code CliFrontend} (checkpoints to S3Proxy in
 * this JVM, cancel, restore, verification of the restored state), then {@code report --rest-url} of a job
 * of the run, with the plugin's figures in it.
 *
 * <p>While the job runs, the metrics the k8s manifests have Prometheus scrape are checked against the real
 * processes: Flink's Prometheus reporter (from {@code plugins/metrics-prometheus/}, with the factory class
 * of {@code k8s/manifests/base/flink-deployment.yaml}) serves on the JobManager and each TaskManager every
 * {@code flink_*} metric the monitoring files use ({@link MonitoringFiles#usedSelectors}: the Grafana
 * dashboard, the alert rules, the PromQL of k8s/README.md and docs/metrics.md), with their exact label
 * matchers; and the real Prometheus JMX exporter agent from Maven Central, loaded into each TaskManager with
 * the rules of {@code k8s/monitoring/jmx-exporter.yaml} (and one catch-all rule after them), exports every
 * attribute of the plugin's MBeans through a k8s rule, with the labels {@code scheme} and {@code s3_endpoint},
 * and serves every {@code flinks3_*} metric those files use. Where Maven Central has no {@code
 * flink-metrics-prometheus} of the version (1.20.5), the reporter part is left out with a printed reason; the
 * exporter is checked on every version.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ClusterMainJobTest {

    private static final String BUCKET = "flinks3-cluster";
    private static final Pattern JOB_ID = Pattern.compile("\"jid\"\\s*:\\s*\"([0-9a-f]{32})\"");
    private static final Pattern REPORT_REQUESTS = Pattern.compile("\\| S3 requests \\(failed\\) \\| (\\d+) \\(");
    private static final Pattern REPORT_UPLOADED = Pattern.compile("\\| uploaded \\(MB\\) \\| ([0-9.]+) \\|");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static Stream<String> versions() {
        return StandaloneCluster.testedVersions();
    }

    @ParameterizedTest(name = "Flink {0}")
    @MethodSource("versions")
    void mainJobRunsThroughTheCliAndReportsThePluginsMetrics(String version) throws Exception {
        // Under target/, not a temporary folder: the processes' logs stay for a look after a failure.
        Path work = Files.createDirectories(
                        Path.of("target", "cluster-main-job-" + version + "-" + System.currentTimeMillis()))
                .toAbsolutePath();
        FlinkDistribution flink = FlinkDistribution.fetch(version);
        Optional<Path> reporter = flink.optionalJar("flink-metrics-prometheus");
        if (reporter.isEmpty()) {
            System.out.println("Flink " + version + ": no flink-metrics-prometheus of this version on Maven Central"
                    + " (reason above): the Prometheus reporter part of this test is skipped");
        }
        Path exporterConfig = MonitoringFiles.exporterConfigWithCatchAll(work);
        Map<String, List<String>> usedMetrics = MonitoringFiles.usedSelectors();
        assertThat(usedMetrics).as("metrics the monitoring files use").containsKeys("flink_", "flinks3_");
        try (EmbeddedS3Server server = EmbeddedS3Server.builder()
                .verifyTrailingChecksums(true)
                .bucket(BUCKET)
                .start()) {
            Map<String, String> configuration = new HashMap<>(Map.of(
                    "s3.endpoint", server.endpoint().toString(),
                    "s3.access-key", server.accessKey(),
                    "s3.secret-key", server.secretKey(),
                    "s3.region", server.region(),
                    "s3.path-style-access", "true",
                    "execution.checkpointing.dir", "s3://" + BUCKET + "/checkpoints"));
            Map<String, Path> morePlugins = new HashMap<>();
            if (reporter.isPresent()) {
                configuration.put(
                        StandaloneCluster.PROMETHEUS_FACTORY,
                        manifestConfiguration(StandaloneCluster.PROMETHEUS_FACTORY));
                morePlugins.put("metrics-prometheus", reporter.get());
            }
            try (StandaloneCluster cluster = StandaloneCluster.start(
                    flink, work.resolve("flink"), 2, configuration, morePlugins, exporterConfig)) {
                run(cluster, server, work, version, reporter.isPresent(), usedMetrics);
            }
        }
    }

    private void run(
            StandaloneCluster cluster,
            EmbeddedS3Server server,
            Path work,
            String version,
            boolean prometheus,
            Map<String, List<String>> usedMetrics)
            throws Exception {
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

        // While the job runs: what Prometheus would scrape from these processes.
        String endpointLabel = "127.0.0.1_" + server.port();
        List<MonitoringFiles.Sample> exported = new ArrayList<>();
        List<String> unexported = new ArrayList<>();
        List<String> wrongLabels = new ArrayList<>();
        List<String> missingFlinkMetrics = new ArrayList<>(usedMetrics.get("flink_"));
        boolean taskManagerReporter = false;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (run.isAlive() && System.nanoTime() < deadline) {
            exported.clear();
            unexported.clear();
            wrongLabels.clear();
            for (int i = 0; i < cluster.taskManagers().size(); i++) {
                String page = scrape(cluster.exporterUrl(i));
                if (page.isEmpty()) {
                    unexported.add(
                            "TaskManager " + i + ": no answer from the exporter agent at " + cluster.exporterUrl(i));
                }
                for (MonitoringFiles.Sample sample : MonitoringFiles.samples(page, "flinks3_")) {
                    if (sample.name().equals(MonitoringFiles.UNEXPORTED)) {
                        unexported.add(sample.labels().get("bean") + " "
                                + sample.labels().get("attribute"));
                        continue;
                    }
                    exported.add(sample);
                    if (!"s3".equals(sample.labels().get("scheme"))
                            || !endpointLabel.equals(sample.labels().get("s3_endpoint"))) {
                        wrongLabels.add(sample.name() + " " + sample.labels());
                    }
                }
            }
            if (prometheus) {
                String scraped = scrape(cluster.prometheusUrl(cluster.jobManager()));
                StringBuilder taskManagers = new StringBuilder();
                for (JavaProcess taskManager : cluster.taskManagers()) {
                    taskManagers.append(scrape(cluster.prometheusUrl(taskManager)));
                }
                taskManagerReporter |= taskManagers.toString().contains("flink_taskmanager_Status_JVM_CPU_Load");
                List<MonitoringFiles.Sample> flinkSamples = MonitoringFiles.samples(scraped + taskManagers, "flink_");
                missingFlinkMetrics.removeIf(
                        selector -> flinkSamples.stream().anyMatch(sample -> sample.selectedBy(selector)));
            }
            boolean done = MonitoringFiles.unselected(usedMetrics.get("flinks3_"), exported)
                            .isEmpty()
                    && unexported.isEmpty()
                    && (!prometheus || (missingFlinkMetrics.isEmpty() && taskManagerReporter));
            if (done) {
                break;
            }
            Thread.sleep(2_000);
        }
        Set<String> names =
                exported.stream().map(MonitoringFiles.Sample::name).collect(Collectors.toCollection(TreeSet::new));
        System.out.printf(
                "Flink %s: the JMX exporter agent with the k8s rules serves %d samples (%d names) of the TaskManagers'"
                        + " MBeans; the Prometheus reporters %s%n",
                version,
                exported.size(),
                names.size(),
                prometheus
                        ? "lack " + missingFlinkMetrics.size() + " of the flink_* selectors the monitoring files use "
                                + usedMetrics.get("flink_")
                        : "were left out");

        int exit = run.waitFor(Duration.ofMinutes(4));
        String log = run.log();
        System.out.println(log);
        assertThat(exit).as("flink run ... cluster; output:%n%s", log).isZero();
        assertThat(log).contains("restore verified");
        assertThat(output.resolve("results.json")).exists();
        assertThat(server.requestLog().entries(RequestKind.PUT_OBJECT))
                .as("checkpoint files written through the plugin")
                .anySatisfy(r -> assertThat(r.key()).startsWith("checkpoints/"));

        assertThat(unexported)
                .as("plugin MBean attributes on the TaskManagers no rule of k8s/monitoring/jmx-exporter.yaml exports")
                .isEmpty();
        assertThat(MonitoringFiles.unselected(usedMetrics.get("flinks3_"), exported))
                .as(
                        "selectors of the dashboard, the alert rules, k8s/README.md or docs/metrics.md that select none"
                                + " of the metrics the exporter agent serves from the TaskManagers' MBeans %s",
                        names)
                .isEmpty();
        assertThat(wrongLabels)
                .as("exported metrics without labels scheme=s3, s3_endpoint=" + endpointLabel)
                .isEmpty();
        if (prometheus) {
            assertThat(missingFlinkMetrics)
                    .as("flink_* selectors of the monitoring files no Prometheus reporter of the cluster served")
                    .isEmpty();
            assertThat(taskManagerReporter)
                    .as("the TaskManagers' Prometheus reporters serve TaskManager metrics")
                    .isTrue();
        }

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
        String markdown = Files.readString(report.resolve("report.md"));
        assertThat(markdown).contains("Plugin metrics");
        Matcher requests = REPORT_REQUESTS.matcher(markdown);
        assertThat(requests.find())
                .as("S3 requests in the report:%n%s", markdown)
                .isTrue();
        assertThat(Long.parseLong(requests.group(1)))
                .as("S3 requests the TaskManagers counted")
                .isPositive();
        Matcher uploaded = REPORT_UPLOADED.matcher(markdown);
        assertThat(uploaded.find())
                .as("bytes uploaded in the report:%n%s", markdown)
                .isTrue();
        assertThat(Double.parseDouble(uploaded.group(1)))
                .as("MB the TaskManagers uploaded")
                .isPositive();
    }

    private String scrape(URI url) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return response.statusCode() == 200 ? response.body() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** A key of {@code spec.flinkConfiguration} in the k8s module's base FlinkDeployment. */
    private static String manifestConfiguration(String key) throws IOException {
        String yaml = Files.readString(
                MonitoringFiles.k8sDir().resolve("manifests/base/flink-deployment.yaml"), StandardCharsets.UTF_8);
        Map<?, ?> deployment = (Map<?, ?>) new Load(LoadSettings.builder().build()).loadFromString(yaml);
        Map<?, ?> spec = (Map<?, ?>) deployment.get("spec");
        Object value = ((Map<?, ?>) spec.get("flinkConfiguration")).get(key);
        assertThat(value).as("%s in the base FlinkDeployment", key).isNotNull();
        return value.toString();
    }

    /** benchmark-job's jar (system property {@code flinks3.benchmark.jar}). */
    static Path benchmarkJar() {
        return Path.of(System.getProperty("flinks3.benchmark.jar", "../benchmark-job/target/flinks3-benchmark-job.jar"))
                .toAbsolutePath()
                .normalize();
    }
}
