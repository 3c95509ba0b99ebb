package dev.flinks3.bench;

import dev.flinks3.bench.checkpoint.cluster.ClusterCommand;
import dev.flinks3.bench.checkpoint.cluster.ReportCommand;
import dev.flinks3.bench.fsbench.FsBenchmarkMain;
import dev.flinks3.bench.checkpoint.local.CompareCommand;
import dev.flinks3.bench.checkpoint.local.LocalCommand;
import dev.flinks3.bench.checkpoint.local.RunContenderCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The benchmark jar's entry point:
 * <pre>
 * java -jar benchmark-job/target/flinks3-benchmark-job.jar local     # the job on an embedded S3 server
 * java -jar benchmark-job/target/flinks3-benchmark-job.jar compare   # the same against several plugins
 * flink run benchmark-job/target/flinks3-benchmark-job.jar cluster   # the same job on a real cluster
 * java -jar benchmark-job/target/flinks3-benchmark-job.jar report --rest-url http://jm:8081 --job-id ID --output out
 * java -jar benchmark-job/target/flinks3-benchmark-job.jar report --results a.json --results b.json --output ab
 * java -jar benchmark-job/target/flinks3-benchmark-job.jar fsbench   # filesystem-level benchmark
 * </pre>
 * Each command prints its options with {@code --help}.
 */
@Command(name = "flinks3-benchmark-job", mixinStandardHelpOptions = true,
        description = "Checkpoint and restore benchmarks of S3 filesystem plugins for Apache Flink.",
        subcommands = {LocalCommand.class, CompareCommand.class, ClusterCommand.class, ReportCommand.class,
            FsBenchmarkMain.class, RunContenderCommand.class})
public final class BenchmarkCli {

    private BenchmarkCli() {}

    public static void main(String[] args) {
        int exitCode = new CommandLine(new BenchmarkCli()).execute(args);
        // Flink's and the plugins' non-daemon threads must not keep a finished benchmark alive.
        System.exit(exitCode);
    }
}
