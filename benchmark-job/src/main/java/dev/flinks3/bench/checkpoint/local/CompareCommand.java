package dev.flinks3.bench.checkpoint.local;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.common.CpuPinning;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Comparison mode: the same job, parameters and S3 profile against several plugins one after another,
 * each in its own JVM with only its plugin folder, in alternating order over rounds; a side-by-side
 * report with the ratios of ours to each rival, behind a correctness gate.
 */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = "Runs the large-state job against several S3 plugins and writes a side-by-side report.")
public final class CompareCommand implements Callable<Integer> {

    @Mixin
    JobParameters job = new JobParameters();

    @Mixin
    S3Options s3 = new S3Options();

    @Mixin
    SessionOptions session = new SessionOptions();

    @Option(
            names = "--contenders",
            split = ",",
            defaultValue = "ours,native,presto,hadoop",
            description =
                    "Plugins in report order; the first round runs them in this order (default: ${DEFAULT-VALUE}).")
    List<String> contenders;

    @Option(
            names = "--rounds",
            defaultValue = "2",
            description = "Rounds over the contenders, order alternating (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--warm-up",
            defaultValue = "true",
            arity = "0..1",
            fallbackValue = "true",
            description = "First run every contender once with small state, not recorded (default: ${DEFAULT-VALUE}).")
    boolean warmUp;

    @Option(
            names = "--pin-cpus",
            defaultValue = "true",
            arity = "0..1",
            fallbackValue = "true",
            description = "Run the embedded S3 server on the last core and the contenders on the others (taskset), "
                    + "so the server's CPU is not taken from the contender measured (default: ${DEFAULT-VALUE}).")
    boolean pinCpus;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1, was " + rounds);
        }
        return session.run("compare", job, s3, contenders, rounds, warmUp, CpuPinning.forThisMachine(pinCpus), spec);
    }
}
