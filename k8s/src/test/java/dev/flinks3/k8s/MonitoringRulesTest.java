package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alert rules and the Grafana dashboard of {@code monitoring/}, checked by Prometheus' own {@code promtool}
 * (Debian's {@code prometheus} package, which {@code .ci/run} installs): the rules file as Prometheus loads it,
 * and every query of the dashboard, Grafana's variables replaced, as a recording rule, so a query Prometheus
 * cannot parse fails here. Where promtool is missing the test fails in CI ({@code CI=true}) and skips
 * elsewhere. That the metrics they name are served is checked on a real TaskManager by cluster-tests'
 * {@code ClusterMainJobTest}.
 */
@Timeout(60)
class MonitoringRulesTest {

    private static final Pattern METRIC = Pattern.compile("\\b(flinks3|flink)_[a-zA-Z0-9_]+\\b");

    @Test
    void promtoolAcceptsTheAlertRules() {
        Command.Result check = promtool("check", "rules", ModuleFiles.ALERT_RULES.toString());

        assertThat(check.exitCode())
                .as("promtool check rules:%n%s%s", check.stdout(), check.stderr())
                .isZero();
        assertThat(check.stdout()).contains("SUCCESS: 6 rules found");
    }

    @Test
    void promtoolParsesEveryQueryOfTheDashboard(@TempDir Path dir) throws IOException {
        List<String> queries = dashboardQueries();
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        for (int i = 0; i < queries.size(); i++) {
            String query = queries.get(i)
                    .replace("$__rate_interval", "5m")
                    .replace("$namespace", ".*")
                    .replace("$pod", ".*");
            rules.append("      - record: dashboard:query_")
                    .append(i)
                    .append("\n        expr: '")
                    .append(query.replace("'", "''"))
                    .append("'\n");
        }
        Path file = Files.writeString(dir.resolve("dashboard-queries.yaml"), rules);

        Command.Result check = promtool("check", "rules", file.toString());

        assertThat(check.exitCode())
                .as("promtool check rules on the dashboard's queries:%n%s%s%n%s", check.stdout(), check.stderr(), rules)
                .isZero();
    }

    @Test
    void theDashboardAndTheRulesNameOnlyThePluginsAndFlinksMetrics() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(ModuleFiles.DASHBOARD.toFile());
        assertThat(dashboard.path("uid").asText()).isEqualTo("flinks3-s3");
        List<String> queries = dashboardQueries();
        assertThat(queries).hasSizeGreaterThan(20);

        Set<String> metrics = new TreeSet<>();
        for (String query : queries) {
            metrics.addAll(metrics(query));
        }
        for (String expression : alertExpressions()) {
            metrics.addAll(metrics(expression));
        }

        assertThat(metrics)
                .contains(
                        "flinks3_s3_operation_latency_seconds_le_total",
                        "flinks3_http_pool_leased_connections",
                        "flinks3_http_pool_idle_connections",
                        "flinks3_filesystem_throttled_attempts_total",
                        "flinks3_filesystem_multipart_uploads_open")
                .allSatisfy(name -> assertThat(name)
                        .as("a counter's name ends in _total, a histogram's buckets carry le")
                        .matches("flink_.*|flinks3_.*"));
    }

    /** Every {@code expr} of the dashboard's panels. */
    static List<String> dashboardQueries() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(ModuleFiles.DASHBOARD.toFile());
        List<String> queries = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(target.path("expr").asText());
            }
        }
        return queries;
    }

    /** The {@code expr} of every alert rule. */
    static List<String> alertExpressions() {
        List<String> expressions = new ArrayList<>();
        for (JsonNode group : Yaml.document(ModuleFiles.ALERT_RULES).path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                expressions.add(rule.path("expr").asText());
            }
        }
        return expressions;
    }

    /** The metric names a PromQL text uses (Flink's {@code flink_*} and the plugin's {@code flinks3_*}). */
    static Set<String> metrics(String promql) {
        Set<String> names = new TreeSet<>();
        Matcher metric = METRIC.matcher(promql);
        while (metric.find()) {
            names.add(metric.group());
        }
        return names;
    }

    private static Command.Result promtool(String... arguments) {
        Path promtool = Path.of("/usr/bin/promtool");
        if (!Files.isExecutable(promtool)) {
            String reason = "promtool is not installed (Debian's prometheus package; .ci/run installs it)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(reason);
            }
            Assumptions.abort(reason);
        }
        List<String> command = new ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(arguments));
        return Command.run(command, null, 30);
    }
}
