package dev.flinks3.bench.checkpoint.cluster;

import dev.flinks3.bench.checkpoint.report.ReportWriter;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.Machine;
import dev.flinks3.bench.checkpoint.results.RunConfiguration;
import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.Reachability;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Writes {@code results.json}, {@code report.md} and the charts for a job on any cluster, read from its
 * JobManager's REST API (running or finished); or {@code report.md} and the charts of one or more
 * {@code results.json} files, side by side (e.g. two cluster runs, native and presto, each collected into its
 * own file), with the same tables and charts as a {@code compare} run.
 */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = {
            "Report of a LargeStateGeneratorJob from any JobManager's REST API, or of one or more "
                    + "results.json files side by side.",
            "  report --rest-url http://jm:8081 --job-id ID --label native --output out/native",
            "  report --results out/native/results.json --results out/presto/results.json --output out/compared"
        })
public final class ReportCommand implements Callable<Integer> {

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {
        @ArgGroup(exclusive = false)
        Remote remote;

        @Option(
                names = "--results",
                arity = "1",
                paramLabel = "FILE",
                description = "A results.json to report; repeat it to compare several files in one report (a "
                        + "contender in several files has their runs as its rounds).")
        List<Path> results;
    }

    static final class Remote {
        @Option(
                names = "--rest-url",
                required = true,
                description = "The JobManager's REST address, e.g. http://localhost:8081.")
        URI restUrl;

        @Option(names = "--job-id", required = true, description = "The job's id.")
        String jobId;
    }

    @Option(
            names = "--label",
            defaultValue = "cluster",
            description = "The run's name in the report (default: ${DEFAULT-VALUE}).")
    String label;

    @Option(
            names = "--output",
            defaultValue = "report",
            description = "Output folder (default: ${DEFAULT-VALUE}). From the REST API it gets results.json too.")
    Path output;

    @Override
    public Integer call() throws Exception {
        Path report;
        if (source.results != null) {
            report = new ReportWriter(output).write(readAll(source.results));
        } else {
            BenchmarkResults results = fromRestApi();
            Json.write(output.resolve("results.json"), results);
            report = new ReportWriter(output).write(results);
        }
        System.out.println("report: " + report.toAbsolutePath());
        return 0;
    }

    /**
     * The results files by the name the report shows: the file's name, with its folder where two files have
     * the same name (as {@code native/results.json} and {@code presto/results.json}).
     */
    static Map<String, BenchmarkResults> readAll(List<Path> files) {
        Map<String, BenchmarkResults> sources = new LinkedHashMap<>();
        for (Path file : files) {
            String name = file.getFileName().toString();
            Path parent = file.toAbsolutePath().getParent();
            String shown = files.stream()
                                    .filter(f -> f.getFileName().toString().equals(name))
                                    .count()
                            == 1
                    ? name
                    : parent != null && parent.getFileName() != null
                            ? parent.getFileName() + "/" + name
                            : file.toString();
            if (sources.containsKey(shown)) {
                shown = file.toString();
            }
            sources.put(shown, BenchmarkResults.read("--results", file));
        }
        return sources;
    }

    private BenchmarkResults fromRestApi() throws Exception {
        Reachability.requireReachable("--rest-url", source.remote.restUrl, "the JobManager's REST API");
        RemoteJobReader reader = new RemoteJobReader(new FlinkRestClient(source.remote.restUrl), source.remote.jobId);
        ContenderResult run = reader.read(label, System.out::println);
        String command = "java -jar flinks3-benchmark-job.jar report --rest-url " + source.remote.restUrl + " --job-id "
                + source.remote.jobId + " --label " + label;
        RunConfiguration configuration = reader.parameters()
                .map(p -> RunConfiguration.of(
                        p, 0, "cluster", source.remote.restUrl.toString(), bucket(run), 1, List.of(label), command))
                .orElseGet(() -> new RunConfiguration(
                        Map.of(),
                        0,
                        run.run().totalRecords(),
                        0,
                        0,
                        "cluster",
                        source.remote.restUrl.toString(),
                        bucket(run),
                        1,
                        List.of(label),
                        command,
                        null));
        return new BenchmarkResults(Instant.now().toString(), Machine.current(), configuration, List.of(run));
    }

    /** The bucket of the checkpoints' paths, empty if none completed. */
    private static String bucket(ContenderResult run) {
        return run.run().checkpoints().stream()
                .map(c -> c.externalPath())
                .filter(p -> !p.isEmpty())
                .map(p -> URI.create(p).getHost())
                .filter(host -> host != null)
                .findFirst()
                .orElse("");
    }
}
