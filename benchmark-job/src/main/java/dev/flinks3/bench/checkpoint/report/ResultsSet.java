package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The results one report shows: one {@code results.json}, or several side by side (e.g. two cluster runs,
 * native and presto, each read from its JobManager into its own file). Runs of a contender that appears in
 * several files count as its further rounds, numbered on from the rounds of the files before.
 */
final class ResultsSet {

    private final Map<String, BenchmarkResults> sources;
    private final List<ContenderResult> runs = new ArrayList<>();
    private final List<String> contenders;

    /**
     * @param sources the results by a name the report shows for each (the file's name), in report order
     * @throws IllegalArgumentException if there are none
     */
    ResultsSet(Map<String, BenchmarkResults> sources) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("a report needs at least one results file");
        }
        this.sources = new LinkedHashMap<>(sources);
        Set<String> order = new LinkedHashSet<>();
        Map<String, Integer> roundsBefore = new HashMap<>();
        for (BenchmarkResults results : sources.values()) {
            order.addAll(results.configuration().contenders());
            Map<String, Integer> highest = new HashMap<>();
            for (ContenderResult run : results.contenders()) {
                String name = run.plugin().name();
                order.add(name);
                runs.add(run.withRound(run.round() + roundsBefore.getOrDefault(name, 0)));
                highest.merge(name, run.round(), Math::max);
            }
            highest.forEach((name, round) -> roundsBefore.merge(name, round, Integer::sum));
        }
        this.contenders = List.copyOf(order);
    }

    /** One results file. */
    static ResultsSet of(BenchmarkResults results) {
        return new ResultsSet(Map.of("results.json", results));
    }

    /** The results by source name, in report order. */
    Map<String, BenchmarkResults> sources() {
        return sources;
    }

    /** Whether the report combines several results files. */
    boolean combined() {
        return sources.size() > 1;
    }

    /** Every run of every source, sources in order. */
    List<ContenderResult> runs() {
        return runs;
    }

    /** Contender names in report order: as each source lists them, then any other run's. */
    List<String> contenders() {
        return contenders;
    }
}
