package dev.flinks3.bench.checkpoint.model;

import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.common.MarkdownTable;
import dev.flinks3.bench.common.UsageException;
import dev.flinks3.testserver.NetworkProfile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Predicts checkpoint durations with {@link CheckpointModel}: calibrates each contender's concurrency on the
 * runs of {@code --calibrate}, checks the predictions against the measured runs of {@code --check}, and
 * predicts one checkpoint of {@code --target-state-gb} on a store described by the {@code --target-*} options
 * (by default S3 in a region as AWS documents it). Writes a markdown report.
 */
@Command(
        name = "model",
        mixinStandardHelpOptions = true,
        description = {
            "Predicts checkpoint durations from the server's request log and Flink's checkpoint statistics of "
                    + "results.json files: calibrates on --calibrate, checks against --check, predicts --target-*.",
            "  model --calibrate wan/results.json --check wan-2g/results.json --check rescale/results.json "
                    + "--output model.md"
        })
public final class ModelCommand implements Callable<Integer> {

    private static final double MEGABYTE = 1e6;
    private static final double WITHIN = 0.2;

    @Option(
            names = "--calibrate",
            required = true,
            arity = "1",
            paramLabel = "FILE",
            description = "A results.json of runs on a store with latency (wan or rescale): each contender's "
                    + "requests in flight are calibrated on its rounds there. Repeatable.")
    List<Path> calibrate;

    @Option(
            names = "--check",
            arity = "1",
            paramLabel = "FILE",
            description = "A results.json whose RocksDB runs are predicted and compared with what they measured. "
                    + "Repeatable.")
    List<Path> check = new ArrayList<>();

    @Option(
            names = "--target-state-gb",
            defaultValue = "15",
            description = "Bytes one full checkpoint writes in the predicted case, in GB of 10^9 bytes "
                    + "(default: ${DEFAULT-VALUE}).")
    double targetStateGb;

    @Option(
            names = "--target-parallelism",
            defaultValue = "8",
            description = "The predicted job's parallelism (default: ${DEFAULT-VALUE}).")
    int targetParallelism;

    @Option(
            names = "--target-latency-ms",
            defaultValue = "30",
            description = "The store's latency per request, in ms (default: ${DEFAULT-VALUE}).")
    double targetLatencyMs;

    @Option(
            names = "--target-connection-mb-per-s",
            defaultValue = "87.5",
            description = "One connection's rate, in MB/s of 10^6 bytes; AWS's performance guidance plans 85-90 MB/s "
                    + "per request (default: ${DEFAULT-VALUE}).")
    double targetConnectionMbPerSecond;

    @Option(
            names = "--target-aggregate-gbit",
            defaultValue = "10",
            description = "The job's bandwidth to the store, all TaskManagers together, in Gbit/s "
                    + "(default: ${DEFAULT-VALUE}).")
    double targetAggregateGbit;

    @Option(
            names = "--target-write-requests-per-s",
            defaultValue = "3500",
            description = "Write requests per second the store takes under one prefix; S3 documents 3,500 PUT, "
                    + "COPY, POST or DELETE per second per partitioned prefix (default: ${DEFAULT-VALUE}).")
    double targetWriteRequestsPerSecond;

    @Option(
            names = "--output",
            defaultValue = "model.md",
            description = "The markdown report to write (default: ${DEFAULT-VALUE}).")
    Path output;

    @Override
    public Integer call() throws IOException {
        StoreProperties target = target();
        Map<String, Calibration> calibrations = calibrate();
        StringBuilder report = new StringBuilder("# Checkpoint durations by model\n\n");
        report.append("Calibrated on ")
                .append(names(calibrate))
                .append(": each contender's requests in flight (Little's law over its rounds).\n\n");
        MarkdownTable calibrated = new MarkdownTable(List.of(
                "contender",
                "checkpoints",
                "parallelism",
                "requests in flight",
                "requests per GB",
                "sync per checkpoint (s)"));
        calibrations.forEach((plugin, c) -> calibrated.row(List.of(
                plugin,
                String.valueOf(c.work().checkpoints()),
                String.valueOf(c.work().parallelism()),
                format(c.concurrency(), 2),
                format(c.work().requests() / (c.work().bytes() / 1e9), 0),
                format(c.work().syncSeconds() / c.work().checkpoints(), 2))));
        report.append(calibrated).append('\n');
        if (!check.isEmpty()) {
            report.append(checks(calibrations));
        }
        report.append(targetCase(calibrations, target));
        Files.writeString(output, report.toString(), StandardCharsets.UTF_8);
        System.out.println("model: " + output.toAbsolutePath());
        return 0;
    }

    private StoreProperties target() {
        requirePositive("--target-state-gb", targetStateGb);
        requirePositive("--target-parallelism", targetParallelism);
        requireNonNegative("--target-latency-ms", targetLatencyMs);
        requireNonNegative("--target-connection-mb-per-s", targetConnectionMbPerSecond);
        requireNonNegative("--target-aggregate-gbit", targetAggregateGbit);
        requireNonNegative("--target-write-requests-per-s", targetWriteRequestsPerSecond);
        return new StoreProperties(
                "target",
                targetLatencyMs / 1000,
                targetConnectionMbPerSecond * MEGABYTE,
                targetAggregateGbit * 1e9 / 8,
                targetWriteRequestsPerSecond);
    }

    /** Per contender, its rounds' work on the calibration runs together and the concurrency it shows. */
    private Map<String, Calibration> calibrate() {
        Map<String, CheckpointWork> works = new LinkedHashMap<>();
        Map<String, StoreProperties> stores = new LinkedHashMap<>();
        for (Path file : calibrate) {
            BenchmarkResults results = BenchmarkResults.read("--calibrate", file);
            StoreProperties store = store(results)
                    .filter(s -> !s.free())
                    .orElseThrow(() -> new UsageException("--calibrate " + file + ": its runs are on "
                            + results.configuration().s3Profile()
                            + "; calibrate on a store with latency (wan or rescale)"));
            for (ContenderResult contender : results.contenders()) {
                CheckpointWork.of(results.configuration(), contender).ifPresent(work -> {
                    works.merge(work.plugin(), work, CheckpointWork::plus);
                    stores.putIfAbsent(work.plugin(), store);
                });
            }
        }
        if (works.isEmpty()) {
            throw new UsageException("--calibrate " + names(calibrate)
                    + ": no run with completed checkpoints and the server's request log");
        }
        Map<String, Calibration> calibrations = new LinkedHashMap<>();
        works.forEach((plugin, work) ->
                calibrations.put(plugin, new Calibration(work, CheckpointModel.concurrency(work, stores.get(plugin)))));
        return calibrations;
    }

    private String checks(Map<String, Calibration> calibrations) {
        MarkdownTable table = new MarkdownTable(List.of(
                "results",
                "store",
                "contender",
                "round",
                "checkpoints",
                "measured (s)",
                "predicted (s)",
                "predicted / measured",
                "deciding bound"));
        int predicted = 0;
        int within = 0;
        List<String> skipped = new ArrayList<>();
        for (Path file : check) {
            BenchmarkResults results = BenchmarkResults.read("--check", file);
            Optional<StoreProperties> store = store(results);
            String backend = results.configuration().jobParameters().getOrDefault("state-backend", "rocksdb");
            if (store.isEmpty() || !backend.equals("rocksdb")) {
                skipped.add(
                        file + " (" + (store.isEmpty() ? results.configuration().s3Profile() : backend) + ")");
                continue;
            }
            for (ContenderResult contender : results.contenders()) {
                Optional<CheckpointWork> work = CheckpointWork.of(results.configuration(), contender);
                Calibration calibration = calibrations.get(contender.plugin().name());
                if (work.isEmpty() || calibration == null) {
                    continue;
                }
                CheckpointModel.Prediction prediction =
                        CheckpointModel.predict(work.get(), store.get(), calibration.concurrencyAt(work.get()));
                double ratio = prediction.seconds() / work.get().measuredSeconds();
                predicted++;
                if (Math.abs(ratio - 1) <= WITHIN) {
                    within++;
                }
                table.row(List.of(
                        file.toString(),
                        store.get().name(),
                        work.get().plugin(),
                        String.valueOf(work.get().round()),
                        String.valueOf(work.get().checkpoints()),
                        format(work.get().measuredSeconds(), 1),
                        format(prediction.seconds(), 1),
                        format(ratio, 2) + "x",
                        prediction.decidingBound()));
            }
        }
        StringBuilder text = new StringBuilder("## Check against the measured runs\n\n");
        text.append("Summed end-to-end durations of each run's completed checkpoints, measured and predicted; ")
                .append(within)
                .append(" of ")
                .append(predicted)
                .append(" predictions within 20%.\n\n")
                .append(table)
                .append('\n');
        if (!skipped.isEmpty()) {
            text.append("Not predicted (the model covers RocksDB's uploads on a known store): ")
                    .append(String.join(", ", skipped))
                    .append(".\n\n");
        }
        return text.toString();
    }

    private String targetCase(Map<String, Calibration> calibrations, StoreProperties store) {
        double bytes = targetStateGb * 1e9;
        MarkdownTable table = new MarkdownTable(List.of(
                "contender",
                "predicted checkpoint (s)",
                "checkpoint throughput (MB/s)",
                "requests per checkpoint",
                "deciding bound",
                "sync (s)",
                "concurrency (s)",
                "dependent (s)",
                "aggregate (s)",
                "request rate (s)"));
        Map<String, Double> seconds = new LinkedHashMap<>();
        calibrations.forEach((plugin, calibration) -> {
            CheckpointWork one = calibration.work().scaledTo(bytes, targetParallelism);
            CheckpointModel.Prediction p = CheckpointModel.predict(one, store, calibration.concurrencyAt(one));
            seconds.put(plugin, p.seconds());
            table.row(List.of(
                    plugin,
                    format(p.seconds(), 1),
                    format(bytes / MEGABYTE / p.seconds(), 0),
                    format(one.requests(), 0),
                    p.decidingBound(),
                    format(p.syncSeconds(), 1),
                    format(p.concurrencySeconds(), 1),
                    format(p.dependentSeconds(), 1),
                    format(p.aggregateSeconds(), 1),
                    format(p.requestRateSeconds(), 1)));
        });
        StringBuilder text = new StringBuilder("## Predicted: one full checkpoint of ")
                .append(format(targetStateGb, 1))
                .append(" GB at parallelism ")
                .append(targetParallelism)
                .append("\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "Store: %.0f ms per request, %.1f MB/s per connection, %.1f Gbit/s for the whole job, %.0f"
                                + " write requests per second under the checkpoint directory's prefix. Each contender's"
                                + " checkpoint is its calibration runs' average checkpoint grown to this size (the"
                                + " same requests per byte) and its requests in flight grown with the parallelism.%n%n",
                        targetLatencyMs,
                        targetConnectionMbPerSecond,
                        targetAggregateGbit,
                        targetWriteRequestsPerSecond))
                .append(table)
                .append('\n');
        seconds.forEach((plugin, s) -> seconds.forEach((other, o) -> {
            if (!plugin.equals(other) && (other.equals("presto") || other.equals("native"))) {
                text.append(
                        String.format(Locale.ROOT, "- %s: %.2fx %s's checkpoint throughput%n", plugin, o / s, other));
            }
        }));
        return text.append('\n').toString();
    }

    /** The store the run's embedded server emulated, empty for an external endpoint. */
    private static Optional<StoreProperties> store(BenchmarkResults results) {
        try {
            return Optional.of(StoreProperties.of(
                    NetworkProfile.named(results.configuration().s3Profile())));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String names(List<Path> files) {
        return String.join(", ", files.stream().map(Path::toString).toList());
    }

    private static String format(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static void requirePositive(String option, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new UsageException(option + " " + value + ": expected a positive number");
        }
    }

    private static void requireNonNegative(String option, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new UsageException(option + " " + value + ": expected zero or a positive number");
        }
    }

    /**
     * A contender's calibration.
     *
     * @param work its rounds' work on the calibration runs together
     * @param concurrency its requests in flight there
     */
    record Calibration(CheckpointWork work, double concurrency) {

        /** The requests in flight of a run at {@code other}'s parallelism: they grow with the subtasks. */
        double concurrencyAt(CheckpointWork other) {
            return concurrency * other.parallelism() / work.parallelism();
        }
    }
}
