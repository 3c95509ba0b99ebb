package dev.flinks3.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The monitoring files a user deploys, read where they are in the repository (system property {@code
 * flinks3.k8s.dir} for the k8s module): the JMX exporter agent's rules ({@code k8s/monitoring/jmx-exporter.yaml}),
 * the metrics the Grafana dashboard, the alert rules and the PromQL examples of {@code k8s/README.md} and {@code
 * docs/metrics.md} use; and what a real exporter agent or Flink reporter serves (Prometheus' text format), to
 * check the one against the other. Nothing here interprets the exporter's rules: the agent does.
 */
final class MonitoringFiles {

    /**
     * The name of the metric the test's copy of the exporter configuration makes of an attribute the k8s rules
     * leave out (a last, catch-all rule with the bean and attribute as labels).
     */
    static final String UNEXPORTED = "flinks3_unexported_by_k8s_rules";

    private static final Pattern PROMQL_BLOCK = Pattern.compile("```promql\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern PROMQL_METRIC = Pattern.compile("\\b(flink|flinks3)_\\w+(?:\\{[^}]*})?");
    private static final Pattern EXACT_LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)");

    private MonitoringFiles() {}

    /** The k8s module's folder. */
    static Path k8sDir() {
        return Path.of(System.getProperty("flinks3.k8s.dir", "../k8s"))
                .toAbsolutePath()
                .normalize();
    }

    /** The repository's {@code docs/} folder. */
    static Path docsDir() {
        return k8sDir().resolveSibling("docs");
    }

    /**
     * The k8s exporter configuration with one more rule at the end that serves every attribute no earlier rule
     * matched as {@value #UNEXPORTED}{@code {bean=..., attribute=...}}, written into {@code dir}.
     */
    static Path exporterConfigWithCatchAll(Path dir) throws IOException {
        String rules = Files.readString(k8sDir().resolve("monitoring/jmx-exporter.yaml"), StandardCharsets.UTF_8);
        String catchAll = "\n  - pattern: 'dev.flinks3<([^>]*)><([^>]*)>([^:]+)'\n"
                + "    name: " + UNEXPORTED + "\n"
                + "    type: UNTYPED\n"
                + "    labels:\n"
                + "      bean: \"$1\"\n"
                + "      attribute: \"$3\"\n";
        return Files.writeString(
                Files.createDirectories(dir).resolve("jmx-exporter-test.yaml"), rules.strip() + catchAll);
    }

    /**
     * The selectors ({@code name} or {@code name{matchers}}) the user-facing monitoring files use, by prefix:
     * {@code flink_} (Flink's Prometheus reporter) or {@code flinks3_} (the exporter's rules): the PromQL blocks
     * of k8s/README.md and docs/metrics.md, the dashboard's queries and the alert rules' expressions.
     */
    static Map<String, List<String>> usedSelectors() throws IOException {
        List<String> promql = new ArrayList<>();
        for (Path doc : List.of(k8sDir().resolve("README.md"), docsDir().resolve("metrics.md"))) {
            Matcher blocks = PROMQL_BLOCK.matcher(Files.readString(doc, StandardCharsets.UTF_8));
            while (blocks.find()) {
                blocks.group(1).lines().filter(line -> !line.startsWith("#")).forEach(promql::add);
            }
        }
        String dashboard =
                Files.readString(k8sDir().resolve("monitoring/grafana-dashboard.json"), StandardCharsets.UTF_8);
        Matcher expr =
                Pattern.compile("\"expr\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(dashboard);
        while (expr.find()) {
            promql.add(expr.group(1).replace("\\\"", "\""));
        }
        Map<?, ?> alerts = (Map<?, ?>) new Load(LoadSettings.builder().build())
                .loadFromString(
                        Files.readString(k8sDir().resolve("monitoring/alert-rules.yaml"), StandardCharsets.UTF_8));
        for (Object group : (List<?>) alerts.get("groups")) {
            for (Object rule : (List<?>) ((Map<?, ?>) group).get("rules")) {
                promql.add(((Map<?, ?>) rule).get("expr").toString());
            }
        }
        Map<String, List<String>> selectors = new TreeMap<>();
        for (String line : promql) {
            Matcher metric = PROMQL_METRIC.matcher(line);
            while (metric.find()) {
                selectors
                        .computeIfAbsent(metric.group(1) + "_", k -> new ArrayList<>())
                        .add(metric.group());
            }
        }
        selectors.replaceAll((prefix, list) -> new ArrayList<>(new TreeSet<>(list)));
        return selectors;
    }

    /** The metric name of a PromQL selector. */
    static String metricName(String selector) {
        int brace = selector.indexOf('{');
        return brace < 0 ? selector : selector.substring(0, brace);
    }

    /**
     * The exact label matchers ({@code name="value"}) of a PromQL selector; others ({@code =~}, e.g. on a pod's
     * name) match Kubernetes' labels, which a standalone cluster has not.
     */
    static Map<String, String> exactLabels(String selector) {
        Map<String, String> labels = new LinkedHashMap<>();
        int brace = selector.indexOf('{');
        if (brace >= 0) {
            Matcher label = EXACT_LABEL.matcher(selector.substring(brace));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
        }
        return labels;
    }

    /** One sample a Prometheus endpoint served: its metric name and labels. */
    record Sample(String name, Map<String, String> labels) {

        /** True if this sample is what {@code selector} selects (name and exact label matchers). */
        boolean selectedBy(String selector) {
            return name.equals(metricName(selector))
                    && labels.entrySet().containsAll(exactLabels(selector).entrySet());
        }
    }

    /** The samples of a page in Prometheus' text format whose metric name starts with {@code prefix}. */
    static List<Sample> samples(String scraped, String prefix) {
        List<Sample> samples = new ArrayList<>();
        for (String line : scraped.lines().toList()) {
            Matcher sample = SAMPLE.matcher(line);
            if (line.startsWith("#") || !sample.find() || !sample.group(1).startsWith(prefix)) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (sample.group(2) != null) {
                Matcher label = EXACT_LABEL.matcher(sample.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            samples.add(new Sample(sample.group(1), labels));
        }
        return samples;
    }

    /** The selectors none of {@code samples} is selected by. */
    static List<String> unselected(List<String> selectors, List<Sample> samples) {
        return selectors.stream()
                .filter(selector -> samples.stream().noneMatch(sample -> sample.selectedBy(selector)))
                .toList();
    }
}
