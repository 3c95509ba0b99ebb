package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flinks3.fs.metrics.MetricsBeans;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 14 on EKS: both variants enable Flink's Prometheus reporter and load the JMX exporter agent the
 * image carries, on the container ports the PodMonitor scrapes; the exporter's rules turn every attribute
 * of the plugin's real MBeans into a {@code flinks3_*} metric, and the README's PromQL names only metrics
 * those rules produce.
 */
@Timeout(60)
class MonitoringTest {

    private static final String REPORTER_FACTORY = "org.apache.flink.metrics.prometheus.PrometheusReporterFactory";
    private static final Pattern JAVA_AGENT = Pattern.compile("-javaagent:(\\S+?)=(\\d+):(\\S+)");

    @ParameterizedTest
    @EnumSource(Variant.class)
    void flinksPrometheusReporterServesOnTheContainerPortThePodMonitorScrapes(Variant variant) {
        Map<String, String> configuration = variant.flinkConfiguration();

        assertThat(configuration).containsEntry("metrics.reporter.prom.factory.class", REPORTER_FACTORY);
        assertThat(configuration.get("metrics.reporter.prom.port"))
                .isEqualTo(Integer.toString(containerPort(variant, "flink-metrics")));
        assertThat(podMonitorPorts()).contains("flink-metrics");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void everyJvmLoadsTheJmxExporterAgentAndItsRulesFromWhereTheImagePutsThem(Variant variant) {
        Matcher agent = JAVA_AGENT.matcher(variant.flinkConfiguration().getOrDefault("env.java.opts.all", ""));
        assertThat(agent.find()).as("a -javaagent in env.java.opts.all").isTrue();
        Dockerfile dockerfile = Dockerfile.parse(ModuleFiles.DOCKERFILE);
        List<Dockerfile.PlacedFile> placed =
                dockerfile.placedFiles(dockerfile.stage(variant.imageTarget).orElseThrow());

        assertThat(placed).extracting(Dockerfile.PlacedFile::target).contains(agent.group(1), agent.group(3));
        assertThat(placed)
                .contains(new Dockerfile.PlacedFile(
                        ModuleFiles.REPOSITORY
                                .relativize(ModuleFiles.JMX_EXPORTER_CONFIG)
                                .toString(),
                        agent.group(3)));
        assertThat(Integer.parseInt(agent.group(2))).isEqualTo(containerPort(variant, "jmx-metrics"));
        assertThat(podMonitorPorts()).contains("jmx-metrics");
    }

    @Test
    void thePodMonitorSelectsTheFlinkPodsOfTheBenchmarksNamespace() {
        ObjectNode podMonitor = Yaml.document(ModuleFiles.POD_MONITOR);
        String namespace = Variant.only(Variant.FLINKS3.render(), "Namespace")
                .path("metadata")
                .path("name")
                .asText();

        assertThat(podMonitor.path("kind").asText()).isEqualTo("PodMonitor");
        assertThat(podMonitor.path("metadata").path("namespace").asText()).isEqualTo(namespace);
        assertThat(podMonitor
                        .path("spec")
                        .path("namespaceSelector")
                        .path("matchNames")
                        .get(0)
                        .asText())
                .isEqualTo(namespace);
        // The label Flink's native Kubernetes mode puts on every JobManager and TaskManager pod.
        assertThat(podMonitor
                        .path("spec")
                        .path("selector")
                        .path("matchLabels")
                        .path("type")
                        .asText())
                .isEqualTo("flink-native-kubernetes");
        assertThat(podMonitorPorts()).containsExactlyInAnyOrder("flink-metrics", "jmx-metrics");
    }

    @Test
    void theExporterRulesServeThePluginsMBeansAndTheImageCarriesTheAgentVersionTheBuildChecks() {
        JsonNode exporter = Yaml.document(ModuleFiles.JMX_EXPORTER_CONFIG);
        assertThat(exporter.path("includeObjectNames").get(0).asText()).isEqualTo(MetricsBeans.DOMAIN + ":*");
        // What the rules make of the MBeans is checked by the real agent on a TaskManager (cluster-tests'
        // ClusterMainJobTest); here, that the image fetches the version that check runs.
        Dockerfile dockerfile = Dockerfile.parse(ModuleFiles.DOCKERFILE);
        assertThat(dockerfile.globalArguments().get("JMX_EXPORTER_VERSION"))
                .as("JMX_EXPORTER_VERSION of the Dockerfile, jmx-exporter.version of the root pom")
                .isEqualTo(Poms.value(".", "/project/properties/*[local-name()='jmx-exporter.version']"));
    }

    private static int containerPort(Variant variant, String portName) {
        JsonNode containers = Variant.spec(variant.flinkDeployment())
                .path("podTemplate")
                .path("spec")
                .path("containers");
        for (JsonNode container : containers) {
            for (JsonNode port : container.path("ports")) {
                if (portName.equals(port.path("name").asText())) {
                    return port.path("containerPort").asInt();
                }
            }
        }
        throw new AssertionError("no container port " + portName);
    }

    private static List<String> podMonitorPorts() {
        List<String> ports = new ArrayList<>();
        Yaml.document(ModuleFiles.POD_MONITOR)
                .path("spec")
                .path("podMetricsEndpoints")
                .forEach(endpoint -> ports.add(endpoint.path("port").asText()));
        return ports.stream().collect(Collectors.toList());
    }
}
