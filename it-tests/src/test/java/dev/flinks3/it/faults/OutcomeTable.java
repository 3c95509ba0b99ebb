package dev.flinks3.it.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a fault suite saw, request kind by fault, written as a markdown table to {@code
 * target/fault-outcomes/<suite>.md} for the closing note. Thread-safe.
 */
final class OutcomeTable {

    private final String suite;
    private final Map<String, Map<String, String>> outcomes = new TreeMap<>();
    private final Set<String> faults = new LinkedHashSet<>();

    OutcomeTable(String suite) {
        this.suite = suite;
    }

    synchronized void record(Scenario scenario, Fault fault, String outcome) {
        faults.add(fault.toString());
        outcomes.computeIfAbsent(scenario.operation(), k -> new TreeMap<>()).put(fault.toString(), outcome);
    }

    /** Writes the table; nothing if no outcome was recorded. */
    synchronized void write() {
        if (outcomes.isEmpty()) {
            return;
        }
        List<String> lines = new ArrayList<>();
        lines.add("# " + suite);
        lines.add("");
        lines.add("| request kind | fault | outcome |");
        lines.add("|---|---|---|");
        outcomes.forEach((kind, byFault) -> faults.forEach(fault -> {
            String outcome = byFault.get(fault);
            if (outcome != null) {
                lines.add("| " + kind + " | " + fault + " | "
                        + outcome.replace('|', '/').replace('\n', ' ') + " |");
            }
        }));
        try {
            Path dir = Path.of("target", "fault-outcomes");
            Files.createDirectories(dir);
            Files.write(dir.resolve(suite + ".md"), lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
