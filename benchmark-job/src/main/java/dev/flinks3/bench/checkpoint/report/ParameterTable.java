package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.RunConfiguration;
import dev.flinks3.bench.common.MarkdownTable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The job parameters of the report, one value column per results file: what ran, with units. Where the
 * state-size cap ({@code targetStateGb}, applied by {@code JobParameters.keyCount()}) lowered
 * {@code numKeys}, the row shows the keys asked for and the keys used.
 */
final class ParameterTable {

    private static final double BYTES_PER_GIB = 1L << 30;

    private final Map<String, BenchmarkResults> sources;

    ParameterTable(Map<String, BenchmarkResults> sources) {
        this.sources = sources;
    }

    /** The table, or empty when no results file recorded parameters. */
    String render() {
        Set<String> keys = new LinkedHashSet<>();
        sources.values()
                .forEach(r -> keys.addAll(r.configuration().jobParameters().keySet()));
        if (keys.isEmpty()) {
            return "";
        }
        List<String> header = new ArrayList<>(List.of("parameter"));
        if (sources.size() > 1) {
            header.addAll(sources.keySet());
        } else {
            header.add("value");
        }
        MarkdownTable table = new MarkdownTable(header);
        for (String key : keys) {
            List<String> cells = new ArrayList<>(List.of(key));
            for (BenchmarkResults results : sources.values()) {
                String value = results.configuration().jobParameters().get(key);
                cells.add(value == null ? "-" : value(results.configuration(), key, value));
            }
            table.row(cells);
        }
        return table.toString();
    }

    /** A parameter's value as it ran, with its unit. */
    static String value(RunConfiguration conf, String key, String value) {
        return switch (key) {
            case "numKeys" -> keys(conf.keyCount(), value);
            case "valueSizeKb" -> value + " KiB";
            case "targetStateGb" -> gibibytes(value);
            default -> value;
        };
    }

    private static String keys(int used, String asked) {
        try {
            return used > 0 && used < Integer.parseInt(asked.trim())
                    ? String.format(Locale.ROOT, "%d used (%s asked, capped by targetStateGb)", used, asked)
                    : asked;
        } catch (NumberFormatException e) {
            return asked;
        }
    }

    private static String gibibytes(String value) {
        try {
            return String.format(
                    Locale.ROOT, "%s GiB (%.1f MB)", value, Double.parseDouble(value.trim()) * BYTES_PER_GIB / 1e6);
        } catch (NumberFormatException e) {
            return value + " GiB";
        }
    }
}
