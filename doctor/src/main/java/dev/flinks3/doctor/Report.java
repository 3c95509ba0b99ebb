package dev.flinks3.doctor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The checks of one run, in the order they ran, printed as text for a person or as JSON for automation, and the
 * exit code their worst verdict gives ({@link #exitCode()}). Thread-safe.
 */
public final class Report {

    /** Exit code: every check ok. */
    public static final int EXIT_OK = 0;
    /** Exit code: warnings, no failure. */
    public static final int EXIT_WARNINGS = 1;
    /** Exit code: at least one check failed. */
    public static final int EXIT_FAILURES = 2;
    /** Exit code: the command line or the configuration file could not be used, nothing was checked. */
    public static final int EXIT_USAGE = 3;

    private final String version;
    private final String target;
    private final String configuration;
    private final List<Check> checks = new ArrayList<>();

    Report(String version, String target, String configuration) {
        this.version = version;
        this.target = target;
        this.configuration = configuration;
    }

    synchronized void add(Check check) {
        checks.add(check);
    }

    /** The checks so far, in order. */
    public synchronized List<Check> checks() {
        return Collections.unmodifiableList(new ArrayList<>(checks));
    }

    /** The worst verdict, {@link Verdict#OK} without checks. */
    public synchronized Verdict worst() {
        Verdict worst = Verdict.OK;
        for (Check check : checks) {
            if (check.verdict().compareTo(worst) > 0) {
                worst = check.verdict();
            }
        }
        return worst;
    }

    /** {@link #EXIT_OK}, {@link #EXIT_WARNINGS} or {@link #EXIT_FAILURES} by the worst verdict. */
    public int exitCode() {
        switch (worst()) {
            case FAILURE:
                return EXIT_FAILURES;
            case WARNING:
                return EXIT_WARNINGS;
            default:
                return EXIT_OK;
        }
    }

    /** Writes the report for a person: one line per check, its fix indented below. */
    synchronized void printText(PrintWriter out) {
        out.printf("flinks3 doctor %s: %s%n", version, target);
        out.printf("configuration: %s%n", configuration);
        String section = null;
        for (Check check : checks) {
            if (!check.section().equals(section)) {
                section = check.section();
                out.printf("%n%s%n", section.toUpperCase(Locale.ROOT));
            }
            out.printf("  %-8s %s: %s%n", check.verdict().word(), check.name(), check.detail());
            if (!check.fix().isEmpty()) {
                out.printf("           %s %s%n", check.verdict() == Verdict.FAILURE ? "fix:" : "change:", check.fix());
            }
        }
        long warnings =
                checks.stream().filter(c -> c.verdict() == Verdict.WARNING).count();
        long failures =
                checks.stream().filter(c -> c.verdict() == Verdict.FAILURE).count();
        out.printf(
                "%n%d checks: %d ok, %d warnings, %d failures (exit code %d)%n",
                checks.size(), checks.size() - warnings - failures, warnings, failures, exitCode());
        out.flush();
    }

    /** Writes the report as one JSON document: version, target, configuration, verdict, exitCode, checks. */
    synchronized void printJson(PrintWriter out) {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("version", version);
        root.put("target", target);
        root.put("configuration", configuration);
        root.put("verdict", worst().word());
        root.put("exitCode", exitCode());
        ArrayNode list = root.putArray("checks");
        for (Check check : checks) {
            ObjectNode node = list.addObject();
            node.put("section", check.section());
            node.put("name", check.name());
            node.put("verdict", check.verdict().word());
            node.put("detail", check.detail());
            if (!check.fix().isEmpty()) {
                node.put("fix", check.fix());
            }
        }
        try {
            out.println(mapper.writeValueAsString(root));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        out.flush();
    }
}
