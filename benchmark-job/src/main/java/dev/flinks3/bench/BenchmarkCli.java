package dev.flinks3.bench;

import dev.flinks3.bench.checkpoint.cluster.ClusterCommand;
import dev.flinks3.bench.checkpoint.cluster.ReportCommand;
import dev.flinks3.bench.checkpoint.local.CompareCommand;
import dev.flinks3.bench.checkpoint.local.LocalCommand;
import dev.flinks3.bench.checkpoint.local.RunContenderCommand;
import dev.flinks3.bench.checkpoint.model.ModelCommand;
import dev.flinks3.bench.common.UsageException;
import dev.flinks3.bench.fsbench.FsBenchmarkMain;
import dev.flinks3.bench.soak.RunSoakCommand;
import dev.flinks3.bench.soak.SoakCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The benchmark jar's entry point:
 * <pre>
 * java -jar benchmark-job/target/flinks3-benchmark-job.jar local     # the job on an embedded S3 server
 * java -jar benchmark-job/target/flinks3-benchmark-job.jar compare   # the same against several plugins
 * flink run benchmark-job/target/flinks3-benchmark-job.jar cluster   # the same job on a real cluster
 * java -jar benchmark-job/target/flinks3-benchmark-job.jar report --rest-url http://jm:8081 --job-id ID --output out
 * java -jar benchmark-job/target/flinks3-benchmark-job.jar report --results a.json --results b.json --output ab
 * java -jar benchmark-job/target/flinks3-benchmark-job.jar fsbench   # filesystem-level benchmark
 * java -jar benchmark-job/target/flinks3-benchmark-job.jar soak      # hours under faults and TaskManager stops
 * </pre>
 * Each command prints its options with {@code --help}, the jar its version with {@code --version}. A
 * user's mistake (an option it cannot parse or a value out of range, an unknown name, a missing file, an
 * unreachable URL) is one line on standard error and exit code {@value #USAGE_EXIT_CODE}; any other
 * failure prints its stack trace and exits with 1.
 */
@Command(
        name = "flinks3-benchmark-job",
        mixinStandardHelpOptions = true,
        versionProvider = BenchmarkCli.Version.class,
        description = "Checkpoint and restore benchmarks of S3 filesystem plugins for Apache Flink.",
        subcommands = {
            LocalCommand.class,
            CompareCommand.class,
            ClusterCommand.class,
            ReportCommand.class,
            FsBenchmarkMain.class,
            RunContenderCommand.class,
            SoakCommand.class,
            RunSoakCommand.class,
            ModelCommand.class
        })
public final class BenchmarkCli {

    /** Exit code of a user's mistake (picocli's usage code). */
    public static final int USAGE_EXIT_CODE = CommandLine.ExitCode.USAGE;

    private BenchmarkCli() {}

    public static void main(String[] args) {
        int exitCode = commandLine().execute(args);
        // Flink's and the plugins' non-daemon threads must not keep a finished benchmark alive.
        System.exit(exitCode);
    }

    /** The command line of the jar with its subcommands and its handling of user errors; for main and tests. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new BenchmarkCli());
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setParameterExceptionHandler(BenchmarkCli::badParameter);
        commandLine.setExecutionExceptionHandler(BenchmarkCli::failed);
        return commandLine;
    }

    private static int badParameter(ParameterException e, String[] args) {
        return usageError(e.getCommandLine(), e.getMessage());
    }

    private static int failed(Exception e, CommandLine commandLine, ParseResult parseResult) {
        if (e instanceof UsageException || e instanceof IllegalArgumentException || e instanceof ParameterException) {
            return usageError(commandLine, e.getMessage());
        }
        PrintWriter err = commandLine.getErr();
        e.printStackTrace(err);
        err.flush();
        return CommandLine.ExitCode.SOFTWARE;
    }

    private static int usageError(CommandLine commandLine, String message) {
        PrintWriter err = commandLine.getErr();
        err.println(commandLine.getCommandName() + ": "
                + String.valueOf(message).replace('\n', ' ') + " (--help lists the options)");
        err.flush();
        return USAGE_EXIT_CODE;
    }

    /** The jar's Implementation-Version, which the build writes into its manifest. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = BenchmarkCli.class.getPackage().getImplementationVersion();
            return new String[] {
                "flinks3-benchmark-job " + (version == null ? "(version unknown: not run from the jar)" : version)
            };
        }
    }
}
