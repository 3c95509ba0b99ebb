package dev.flinks3.bench.checkpoint.cluster;

import dev.flinks3.bench.checkpoint.report.ReportWriter;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.Machine;
import dev.flinks3.bench.checkpoint.results.RunConfiguration;
import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.Reachability;
import dev.flinks3.bench.common.UsageException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Writes {@code results.json}, {@code report.md} and the charts for a job on any cluster, read from its
 * JobManager's REST API (running or finished), or renders the report again from a {@code results.json}.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Report of a LargeStateGeneratorJob from any JobManager's REST API, or again from a results.json.")
public final class ReportCommand implements Callable<Integer> {

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {
        @ArgGroup(exclusive = false)
        Remote remote;

        @Option(names = "--results", description = "Render the report of this results.json again.")
        Path results;
    }

    static final class Remote {
        @Option(names = "--rest-url", required = true, description = "The JobManager's REST address, e.g. http://localhost:8081.")
        URI restUrl;

        @Option(names = "--job-id", required = true, description = "The job's id.")
        String jobId;
    }

    @Option(names = "--label", defaultValue = "cluster", description = "The run's name in the report (default: ${DEFAULT-VALUE}).")
    String label;

    @Option(names = "--output", required = true, description = "Output folder.")
    Path output;

    @Override
    public Integer call() throws Exception {
        BenchmarkResults results = source.results != null ? fromFile(source.results) : fromRestApi();
        Json.write(output.resolve("results.json"), results);
        Path report = new ReportWriter(output).write(results);
        System.out.println("report: " + report.toAbsolutePath());
        return 0;
    }

    private static BenchmarkResults fromFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new UsageException("--results " + file + ": no such file; expected the results.json a run wrote");
        }
        try {
            return Json.read(file, BenchmarkResults.class);
        } catch (IOException e) {
            throw new UsageException("--results " + file + ": not a results.json of this benchmark (" + e.getMessage() + ")", e);
        }
    }

    private BenchmarkResults fromRestApi() throws Exception {
        Reachability.requireReachable("--rest-url", source.remote.restUrl, "the JobManager's REST API");
        RemoteJobReader reader = new RemoteJobReader(new FlinkRestClient(source.remote.restUrl), source.remote.jobId);
        ContenderResult run = reader.read(label, System.out::println);
        String command = "java -jar flinks3-benchmark-job.jar report --rest-url " + source.remote.restUrl
                + " --job-id " + source.remote.jobId + " --label " + label;
        RunConfiguration configuration = reader.parameters()
                .map(p -> RunConfiguration.of(p, 0, "cluster", source.remote.restUrl.toString(), bucket(run), 1,
                        List.of(label), command))
                .orElseGet(() -> new RunConfiguration(Map.of(), 0, run.run().totalRecords(), 0, 0, "cluster",
                        source.remote.restUrl.toString(), bucket(run), 1, List.of(label), command));
        return new BenchmarkResults(Instant.now().toString(), Machine.current(), configuration, List.of(run));
    }

    /** The bucket of the checkpoints' paths, empty if none completed. */
    private static String bucket(ContenderResult run) {
        return run.run().checkpoints().stream()
                .map(c -> c.externalPath())
                .filter(p -> !p.isEmpty())
                .map(p -> URI.create(p).getHost())
                .filter(host -> host != null)
                .findFirst().orElse("");
    }
}
