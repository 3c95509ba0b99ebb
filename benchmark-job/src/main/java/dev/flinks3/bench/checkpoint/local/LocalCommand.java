package dev.flinks3.bench.checkpoint.local;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.common.Contender;
import dev.flinks3.bench.common.CpuPinning;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Local mode, the README's first command: the job against one plugin on an embedded S3 server (or
 * {@code --endpoint}), on a MiniCluster in a JVM of its own that loads only that plugin.
 */
@Command(
        name = "local",
        mixinStandardHelpOptions = true,
        description = "Runs the large-state job on an embedded S3 server with one plugin and writes a report.")
public final class LocalCommand implements Callable<Integer> {

    @Mixin
    JobParameters job = new JobParameters();

    @Mixin
    S3Options s3 = new S3Options();

    @Mixin
    SessionOptions session = new SessionOptions();

    @Option(
            names = "--contender",
            defaultValue = Contender.OURS,
            description =
                    "The plugin: ours, native, presto, hadoop, or a name given with --plugin (default: ${DEFAULT-VALUE}).")
    String contender;

    @Option(
            names = "--warm-up",
            defaultValue = "false",
            arity = "0..1",
            fallbackValue = "true",
            description = "First run every contender once with small state, not recorded (default: ${DEFAULT-VALUE}).")
    boolean warmUp;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return session.run("local", job, s3, List.of(contender), 1, warmUp, CpuPinning.forThisMachine(false), spec);
    }
}
