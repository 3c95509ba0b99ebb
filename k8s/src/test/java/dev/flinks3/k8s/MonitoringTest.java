package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flinks3.fs.metrics.MetricsBeans;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystemFactory;
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
    private static final Pattern README_METRIC = Pattern.compile("\\bflinks3_\\w+");

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
        String namespace = Variant.only(Variant.NATIVE.render(), "Namespace")
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
    void theExporterRulesNameEveryAttributeOfThePluginsMBeansAndTheReadmeUsesOnlyThoseNames() throws Exception {
        JsonNode exporter = Yaml.document(ModuleFiles.JMX_EXPORTER_CONFIG);
        assertThat(exporter.path("includeObjectNames").get(0).asText()).isEqualTo(MetricsBeans.DOMAIN + ":*");
        FileSystemFactory factory = offlineFactory();
        factory.create(URI.create("s3://bucket/"));
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = server.queryNames(
                new ObjectName(MetricsBeans.DOMAIN + ":endpoint="
                        + MetricsBeans.endpointKey(URI.create(OFFLINE_ENDPOINT), null) + ",*"),
                null);
        assertThat(names).hasSizeGreaterThan(1);

        Set<String> exported = new TreeSet<>();
        List<String> unmatched = new ArrayList<>();
        for (ObjectName name : names) {
            for (MBeanAttributeInfo attribute : server.getMBeanInfo(name).getAttributes()) {
                String bean = beanString(name, attribute.getName());
                Exported metric = export(exporter, bean);
                if (metric == null) {
                    unmatched.add(bean);
                } else {
                    exported.add(metric.name());
                    assertThat(metric.labels())
                            .containsEntry("scheme", "s3")
                            .containsEntry("s3_endpoint", "127.0.0.1_9");
                }
            }
        }
        factory.configure(Configuration.fromMap(OFFLINE));

        assertThat(unmatched).as("attributes no rule exports").isEmpty();
        assertThat(exported)
                .contains(
                        "flinks3_filesystem_throttled_attempts",
                        "flinks3_filesystem_bytes_uploaded",
                        "flinks3_filesystem_peak_buffered_bytes",
                        "flinks3_s3_operation_latency_p99_millis");
        Matcher used = README_METRIC.matcher(ModuleFiles.read(ModuleFiles.README));
        List<String> inReadme = new ArrayList<>();
        while (used.find()) {
            if (!used.group().endsWith("_")) {
                inReadme.add(used.group());
            }
        }
        assertThat(inReadme)
                .isNotEmpty()
                .allSatisfy(metric -> assertThat(exported).contains(metric));
    }

    private static final String OFFLINE_ENDPOINT = "http://127.0.0.1:9";
    /** Enough to build the S3 clients without sending a request. */
    private static final Map<String, String> OFFLINE = Map.of(
            "s3.endpoint", OFFLINE_ENDPOINT,
            "s3.path-style-access", "true",
            "s3.access-key", "AKIAOFFLINE",
            "s3.secret-key", "offline-secret");

    private static FileSystemFactory offlineFactory() {
        for (FileSystemFactory factory : ServiceLoader.load(FileSystemFactory.class)) {
            if (factory.getScheme().equals("s3")) {
                factory.configure(Configuration.fromMap(OFFLINE));
                return factory;
            }
        }
        throw new AssertionError("no factory for s3://");
    }

    /** A metric the exporter serves: its name and labels. */
    record Exported(String name, Map<String, String> labels) {}

    /**
     * What the exporter makes of one attribute, by its documented rule semantics: the first rule whose
     * (unanchored) pattern matches {@code bean} gives the name and labels, {@code $n} replaced by group n,
     * names lower-cased; null if no rule matches.
     */
    private static Exported export(JsonNode exporter, String bean) {
        for (JsonNode rule : exporter.path("rules")) {
            Matcher matcher = Pattern.compile(rule.path("pattern").asText()).matcher(bean);
            if (matcher.find()) {
                Map<String, String> labels = new HashMap<>();
                rule.path("labels")
                        .fields()
                        .forEachRemaining(label -> labels.put(
                                label.getKey(), substitute(label.getValue().asText(), matcher)));
                return new Exported(
                        substitute(rule.path("name").asText(), matcher).toLowerCase(), labels);
            }
        }
        return null;
    }

    private static String substitute(String template, Matcher matcher) {
        Matcher group = Pattern.compile("\\$(\\d+)").matcher(template);
        StringBuilder result = new StringBuilder();
        while (group.find()) {
            String value = matcher.group(Integer.parseInt(group.group(1)));
            group.appendReplacement(result, Matcher.quoteReplacement(value == null ? "" : value));
        }
        group.appendTail(result);
        return result.toString();
    }

    /**
     * The text the JMX exporter matches rules against, {@code domain<key=value, ...><>attribute}, keys in
     * the order the MBean was registered with and the attribute in snake case (rules with
     * {@code attrNameSnakeCase: true}).
     */
    private static String beanString(ObjectName name, String attribute) {
        String keys = String.join(", ", name.getKeyPropertyListString().split(","));
        return name.getDomain() + "<" + keys + "><>" + snakeCase(attribute);
    }

    /** The exporter's snake case: an underscore before each upper-case letter that follows a letter that is not. */
    private static String snakeCase(String attribute) {
        StringBuilder snake = new StringBuilder();
        boolean previousUpperOrUnderscore = true;
        for (char c : attribute.toCharArray()) {
            boolean upper = Character.isUpperCase(c);
            if (upper && !previousUpperOrUnderscore) {
                snake.append('_');
            }
            snake.append(Character.toLowerCase(c));
            previousUpperOrUnderscore = upper || c == '_';
        }
        return snake.toString();
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
