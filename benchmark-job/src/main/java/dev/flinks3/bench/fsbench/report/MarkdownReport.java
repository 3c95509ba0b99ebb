package dev.flinks3.bench.fsbench.report;

import dev.flinks3.bench.common.MarkdownTable;
import dev.flinks3.bench.common.Spread;
import dev.flinks3.bench.fsbench.RunDescription;
import dev.flinks3.bench.fsbench.WorkloadResult;
import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import dev.flinks3.bench.fsbench.workloads.WorkloadSizes;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Renders a {@link Comparison} as markdown: one table per {@link Metric} with each contender's
 * mean (min-max over the rounds) and the ratio of ours to each rival, a flag on figures whose rounds
 * differ by more than {@link Spread#FLAG_RATIO}, the S3 requests per operation and every failure.
 */
public final class MarkdownReport {

    /** Marks a figure whose rounds differ by more than {@link Spread#FLAG_RATIO}. */
    static final String UNSTABLE = " (!)";

    static final String FAILED = "FAILED";
    static final String ABSENT = "-";

    private MarkdownReport() {}

    /**
     * The whole report.
     *
     * @param results every result of the run, for the per-operation request counts of round 1 and the waits for
     *     the server to be quiet
     */
    public static String render(RunDescription run, Comparison comparison, List<WorkloadResult> results) {
        StringBuilder out = new StringBuilder();
        header(out, run, comparison, results);
        for (Metric metric : Metric.values()) {
            table(out, comparison, metric);
        }
        requestsByOperation(out, comparison, results);
        failures(out, comparison);
        return out.toString();
    }

    private static void header(
            StringBuilder out, RunDescription run, Comparison comparison, List<WorkloadResult> results) {
        WorkloadSizes s = run.sizes();
        out.append("# Filesystem benchmark, profile `").append(run.profile()).append("`\n\n");
        out.append("Command: `").append(run.command()).append("`  \n");
        out.append("Started ")
                .append(run.startedAt())
                .append("; ")
                .append(run.rounds())
                .append(" round(s), order alternating (A B C, then C B A); each figure is the mean (min-max); ")
                .append(UNSTABLE.trim())
                .append(" marks rounds differing by more than ")
                .append(Spread.FLAG_RATIO)
                .append("x. Ratios are ")
                .append(comparison.baseline())
                .append(" / rival.\n\n");
        out.append("Processes: the S3 server in its own JVM, each contender in its own JVM; ")
                .append(run.cpuPinning())
                .append("; the server's objects on ")
                .append(run.serverStorage())
                .append(run.serverWarmUp().isEmpty() ? "" : "; " + run.serverWarmUp())
                .append(".");
        serverQuiet(out, results);
        out.append("\n\n");
        out.append("Sizes: stream ")
                .append(mib(s.streamBytes()))
                .append(" in ")
                .append(kib(s.writeBytes()))
                .append(" writes; ")
                .append(s.concurrentStreams())
                .append(" concurrent streams")
                .append(
                        s.streamSchemes().equals(WorkloadSizes.DEFAULT_STREAM_SCHEMES)
                                ? ""
                                : " (on " + String.join(", ", s.streamSchemes()) + " in turn)")
                .append("; ")
                .append(s.smallFiles())
                .append(" small files of ")
                .append(kib(s.smallFileBytes()))
                .append("; ")
                .append(s.positionalReads())
                .append(" positional reads of ")
                .append(kib(s.positionalReadBytes()))
                .append(
                        s.scanSeconds() == 0
                                ? ""
                                : " (the scan goes on for " + s.scanSeconds() + " s, walking the file again where it"
                                        + " ends)")
                .append("; restore of ")
                .append(s.restoreFiles())
                .append(" files of ")
                .append(mib(s.restoreFileBytes()))
                .append(" (")
                .append(s.restoreThreads())
                .append(" threads without bulk copy); recursive delete of ")
                .append(s.deleteObjects())
                .append(" objects; ")
                .append(mib(s.persistBytes()))
                .append(" written to a recoverable stream before persist().\n\n");
        out.append("Plugins: ");
        out.append(run.pluginJars().entrySet().stream()
                .map(e -> e.getKey() + " = `" + e.getValue() + "`")
                .collect(Collectors.joining(", ")));
        out.append("\n\n");
    }

    private static void table(StringBuilder out, Comparison comparison, Metric metric) {
        out.append("## ")
                .append(metric.title())
                .append(metric.higherIsBetter() ? " (higher is better)" : " (lower is better)")
                .append("\n\n");
        List<String> columns = new ArrayList<>(List.of("workload"));
        if (metric == Metric.THROUGHPUT) {
            columns.add("unit");
        }
        columns.addAll(comparison.contenders());
        comparison.rivals().forEach(rival -> columns.add(comparison.baseline() + " / " + rival));
        MarkdownTable table = new MarkdownTable(columns);
        for (FsWorkload workload : comparison.workloads()) {
            List<String> cells = new ArrayList<>(List.of(workload.title()));
            if (metric == Metric.THROUGHPUT) {
                cells.add(workload.unit().label());
            }
            for (String contender : comparison.contenders()) {
                cells.add(cell(comparison.cell(workload, contender), metric));
            }
            for (String rival : comparison.rivals()) {
                cells.add(ratio(comparison.ratio(workload, metric, rival)));
            }
            table.row(cells);
        }
        out.append(table).append('\n');
    }

    /**
     * Whether the timed parts waited for the S3 server to be quiet first: the longest wait, and the parts that
     * started with the server still busy.
     */
    private static void serverQuiet(StringBuilder out, List<WorkloadResult> results) {
        double longest = results.stream()
                .mapToDouble(WorkloadResult::serverWaitSeconds)
                .max()
                .orElse(0);
        if (longest <= 0) {
            return;
        }
        out.append(String.format(
                Locale.ROOT,
                " Each timed part started once the S3 server's process had used at most 5%% of a core over 200 ms"
                        + " (the longest wait %.1f s)",
                longest));
        List<String> busy = results.stream()
                .filter(r -> !r.serverQuiet())
                .map(r -> r.workload().title() + " of " + r.contender() + " in round " + r.round())
                .toList();
        out.append(busy.isEmpty() ? "." : "; with the server still busy after 20 s: " + String.join(", ", busy) + ".");
    }

    private static void requestsByOperation(StringBuilder out, Comparison comparison, List<WorkloadResult> results) {
        out.append("## S3 requests by operation (round 1)\n\n");
        out.append("Count, then in brackets the server's summed time from arrival to answer of those requests.\n\n");
        List<String> columns = new ArrayList<>(List.of("workload"));
        columns.addAll(comparison.contenders());
        MarkdownTable table = new MarkdownTable(columns);
        for (FsWorkload workload : comparison.workloads()) {
            List<String> cells = new ArrayList<>(List.of(workload.title()));
            for (String contender : comparison.contenders()) {
                cells.add(results.stream()
                        .filter(r -> r.round() == 1
                                && r.workload() == workload
                                && r.contender().equals(contender))
                        .findFirst()
                        .map(r -> operations(r.requestsByOperation(), r.serveMillisByOperation()))
                        .orElse(ABSENT));
            }
            table.row(cells);
        }
        out.append(table).append('\n');
    }

    private static void failures(StringBuilder out, Comparison comparison) {
        List<String> lines = new ArrayList<>();
        for (FsWorkload workload : comparison.workloads()) {
            for (String contender : comparison.contenders()) {
                comparison
                        .cell(workload, contender)
                        .ifPresent(cell -> cell.failures()
                                .forEach(failure -> lines.add("- " + contender + ", " + workload.title() + ", "
                                        + failure.replace('\n', ' '))));
            }
        }
        if (!lines.isEmpty()) {
            out.append("## Failures\n\n");
            lines.forEach(line -> out.append(line).append('\n'));
            out.append('\n');
        }
    }

    static String cell(Optional<Comparison.Cell> cell, Metric metric) {
        if (cell.isEmpty()) {
            return ABSENT;
        }
        if (cell.get().failed()) {
            return FAILED;
        }
        Spread spread = cell.get().spread(metric);
        String text = number(spread.mean(), metric);
        if (spread.count() > 1) {
            text += " (" + number(spread.min(), metric) + "-" + number(spread.max(), metric) + ")";
        }
        return spread.flagged() ? text + UNSTABLE : text;
    }

    /** Two decimals, or two significant digits below 0.1 (1,000 requests against 3 must not read 0.00x). */
    static String ratio(OptionalDouble ratio) {
        if (ratio.isEmpty()) {
            return ABSENT;
        }
        double value = ratio.getAsDouble();
        if (value >= 0.1 || value == 0) {
            return String.format(Locale.ROOT, "%.2fx", value);
        }
        return new BigDecimal(value).round(new MathContext(2)).toPlainString() + "x";
    }

    /** Whole numbers for counts, otherwise three significant figures, whole numbers from 100 on. */
    static String number(double value, Metric metric) {
        double magnitude = Math.abs(value);
        if (metric.whole() || magnitude >= 100 || value == 0) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        return String.format(Locale.ROOT, magnitude >= 10 ? "%.1f" : "%.2f", value);
    }

    static String operations(Map<String, Long> byOperation, Map<String, Long> serveMillis) {
        if (byOperation.isEmpty()) {
            return "0";
        }
        return byOperation.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + " " + e.getValue()
                        + String.format(Locale.ROOT, " (%.2f s)", serveMillis.getOrDefault(e.getKey(), 0L) / 1000.0))
                .collect(Collectors.joining(", "));
    }

    private static String mib(long bytes) {
        return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MiB" : bytes + " B";
    }

    private static String kib(long bytes) {
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " B";
    }
}
