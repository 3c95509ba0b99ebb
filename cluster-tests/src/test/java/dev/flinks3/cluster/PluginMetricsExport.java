package dev.flinks3.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The k8s module's monitoring files, read where they are in the repository (system property {@code
 * flinks3.k8s.dir}), applied to what a real Flink process exposes: the Prometheus JMX exporter's rules of
 * {@code monitoring/jmx-exporter.yaml} to the plugin's MBeans of a TaskManager read over JMX, and the
 * metric names {@code k8s/README.md}'s PromQL uses. The exporter agent itself is not fetched by the build;
 * its rule semantics are applied here as documented: {@code includeObjectNames}, then the first rule
 * whose pattern matches {@code domain<key=value, ...><>attribute} (keys in the MBean's order, the
 * attribute in snake case under {@code attrNameSnakeCase}) names the metric, {@code $n} replaced by the
 * pattern's groups, lower-cased under {@code lowercaseOutputName}.
 */
final class PluginMetricsExport {

    private static final Pattern PROMQL_METRIC = Pattern.compile("\\b(flink|flinks3)_\\w+(?:\\{[^}]*})?");
    private static final Pattern EXACT_LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    private final Map<String, Object> exporter;

    private PluginMetricsExport(Map<String, Object> exporter) {
        this.exporter = exporter;
    }

    /** The k8s module's folder. */
    static Path k8sDir() {
        return Path.of(System.getProperty("flinks3.k8s.dir", "../k8s"))
                .toAbsolutePath()
                .normalize();
    }

    /** The exporter configuration the image carries, {@code k8s/monitoring/jmx-exporter.yaml}. */
    @SuppressWarnings("unchecked")
    static PluginMetricsExport ofK8sModule() throws IOException {
        String yaml = Files.readString(k8sDir().resolve("monitoring/jmx-exporter.yaml"), StandardCharsets.UTF_8);
        return new PluginMetricsExport(
                (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(yaml));
    }

    /**
     * The selectors ({@code name} or {@code name{matchers}}) k8s/README.md's PromQL examples use, by
     * prefix: {@code flink_} (Flink's Prometheus reporter) or {@code flinks3_} (the exporter's rules).
     */
    static Map<String, List<String>> readmeMetrics() throws IOException {
        String readme = Files.readString(k8sDir().resolve("README.md"), StandardCharsets.UTF_8);
        Matcher blocks = Pattern.compile("```promql\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        Map<String, List<String>> names = new TreeMap<>();
        while (blocks.find()) {
            for (String line : blocks.group(1).lines().toList()) {
                if (line.startsWith("#")) {
                    continue;
                }
                Matcher metric = PROMQL_METRIC.matcher(line);
                while (metric.find()) {
                    names.computeIfAbsent(metric.group(1) + "_", k -> new ArrayList<>())
                            .add(metric.group());
                }
            }
        }
        return names;
    }

    /** The metric name of a PromQL selector. */
    static String metricName(String selector) {
        int brace = selector.indexOf('{');
        return brace < 0 ? selector : selector.substring(0, brace);
    }

    /**
     * The exact label matchers ({@code name="value"}) of a PromQL selector; others ({@code =~}, e.g. on
     * a pod's name) match Kubernetes' labels, which a standalone cluster has not.
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

    /** A metric the exporter serves for one MBean attribute: its name and labels. */
    record Exported(String bean, String name, Map<String, String> labels) {

        /** True if this metric is what {@code selector} selects (name and exact label matchers). */
        boolean selectedBy(String selector) {
            return name.equals(metricName(selector))
                    && labels.entrySet().containsAll(exactLabels(selector).entrySet());
        }
    }

    /**
     * Reads every MBean under the exporter's {@code includeObjectNames} from the process at {@code jmx}
     * and exports each attribute.
     *
     * @param unmatched gets the attributes no rule exports
     */
    List<Exported> export(JMXServiceURL jmx, List<String> unmatched) throws Exception {
        List<Exported> exported = new ArrayList<>();
        try (JMXConnector connector = JMXConnectorFactory.connect(jmx)) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            for (Object include : (List<?>) exporter.get("includeObjectNames")) {
                Set<ObjectName> names = server.queryNames(new ObjectName(include.toString()), null);
                for (ObjectName name : names) {
                    for (MBeanAttributeInfo attribute :
                            server.getMBeanInfo(name).getAttributes()) {
                        Exported metric = export(name, attribute.getName());
                        if (metric == null) {
                            unmatched.add(name + " " + attribute.getName());
                        } else {
                            exported.add(metric);
                        }
                    }
                }
            }
        }
        return exported;
    }

    private Exported export(ObjectName name, String attribute) {
        boolean lowercase = Boolean.TRUE.equals(exporter.get("lowercaseOutputName"));
        String keys = String.join(", ", name.getKeyPropertyListString().split(","));
        for (Object entry : (List<?>) exporter.get("rules")) {
            Map<?, ?> rule = (Map<?, ?>) entry;
            boolean snake = Boolean.TRUE.equals(rule.get("attrNameSnakeCase"));
            String bean = name.getDomain() + "<" + keys + "><>" + (snake ? snakeCase(attribute) : attribute);
            Matcher matcher = Pattern.compile(rule.get("pattern").toString()).matcher(bean);
            if (matcher.find()) {
                Map<String, String> labels = new LinkedHashMap<>();
                Map<?, ?> ruleLabels = rule.get("labels") instanceof Map<?, ?> m ? m : Map.of();
                ruleLabels.forEach((key, value) -> labels.put(key.toString(), substitute(value.toString(), matcher)));
                String metric = substitute(rule.get("name").toString(), matcher);
                return new Exported(bean, lowercase ? metric.toLowerCase() : metric, labels);
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

    /** The exporter's snake case: an underscore before each upper-case letter that follows one that is not. */
    static String snakeCase(String attribute) {
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
}
