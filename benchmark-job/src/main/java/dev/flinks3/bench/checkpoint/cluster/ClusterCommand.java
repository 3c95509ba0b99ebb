package dev.flinks3.bench.checkpoint.cluster;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.LargeStateGeneratorJob;
import dev.flinks3.bench.checkpoint.report.ReportWriter;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.Machine;
import dev.flinks3.bench.checkpoint.results.RunConfiguration;
import dev.flinks3.bench.checkpoint.run.BenchmarkRun;
import dev.flinks3.bench.checkpoint.run.JobLauncher;
import dev.flinks3.bench.checkpoint.run.RunEvents;
import dev.flinks3.bench.checkpoint.run.RunOutcome;
import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.PluginInfo;
import dev.flinks3.bench.common.Reachability;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Cluster mode: the whole benchmark (checkpointing phase, cancel, restore, verification, report) on a
 * real Flink session cluster, from the client of {@code flink run}:
 * <pre>flink run benchmark-job/target/flinks3-benchmark-job.jar cluster --num-keys ... --output results/</pre>
 * The filesystem plugin and its {@code s3.*} settings are the cluster's; checkpoints go to
 * {@code --checkpoint-dir} or the cluster's {@code execution.checkpointing.dir}. Statistics come from the
 * JobManager's REST API at {@code --rest-url}, or at {@code rest.address}/{@code rest.port} of the
 * configuration {@code flink run} uses.
 */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        description = "Runs the benchmark on the cluster `flink run` submits to and writes a report.")
public final class ClusterCommand implements Callable<Integer> {

    @Mixin
    JobParameters job = new JobParameters();

    @Option(
            names = {"--restore-parallelism", "--restoreParallelism"},
            description = "Parallelism of the restored job (default: --parallelism).")
    Integer restoreParallelism;

    @Option(
            names = {"--checkpoint-dir", "--checkpointDir"},
            description = "Checkpoint directory (default: the cluster's execution.checkpointing.dir).")
    String checkpointDirectory;

    @Option(
            names = "--rest-url",
            description = "The JobManager's REST address (default: from the Flink configuration).")
    URI restUrl;

    @Option(
            names = "--label",
            defaultValue = "cluster",
            description = "The run's name in the report (default: ${DEFAULT-VALUE}).")
    String label;

    @Option(
            names = "--output",
            defaultValue = "benchmark-results/cluster",
            description = "Output folder (default: ${DEFAULT-VALUE}).")
    Path output;

    @Override
    public Integer call() throws Exception {
        job.validate();
        int restoreAt = restoreParallelism == null ? job.parallelism() : restoreParallelism;
        Configuration clientConfiguration = GlobalConfiguration.loadConfiguration();
        URI rest = restUrl != null
                ? restUrl
                : URI.create("http://" + clientConfiguration.get(RestOptions.ADDRESS) + ":"
                        + clientConfiguration.get(RestOptions.PORT));
        Reachability.requireReachable(
                restUrl != null ? "--rest-url" : "rest.address/rest.port", rest, "the JobManager's REST API");
        String checkpoints = checkpointDirectory != null
                ? checkpointDirectory
                : clientConfiguration.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY);
        JobLauncher launcher = new JobLauncher(
                StreamExecutionEnvironment::getExecutionEnvironment,
                LargeStateGeneratorJob.configuration(job, checkpoints),
                job);
        RunEvents events = RunEvents.of(System.out::println, phase -> {});
        RunOutcome outcome =
                RunOutcome.of(() -> new BenchmarkRun(launcher, new FlinkRestClient(rest), events).run(restoreAt));
        ContenderResult result = new ContenderResult(
                new PluginInfo(label, "", "", ""), 1, outcome.run(), outcome.error(), 0, 0, Map.of(), 0);
        String bucket = checkpoints == null
                ? ""
                : String.valueOf(URI.create(checkpoints).getHost());
        BenchmarkResults results = new BenchmarkResults(
                Instant.now().toString(),
                Machine.current(),
                RunConfiguration.of(
                        job,
                        restoreAt,
                        "cluster",
                        rest.toString(),
                        bucket,
                        1,
                        List.of(label),
                        "flink run flinks3-benchmark-job.jar cluster " + String.join(" ", job.toArguments())),
                List.of(result));
        Json.write(output.resolve("results.json"), results);
        System.out.println("report: " + new ReportWriter(output).write(results).toAbsolutePath());
        return result.succeeded() ? 0 : 1;
    }
}
