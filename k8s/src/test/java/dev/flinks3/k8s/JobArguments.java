package dev.flinks3.k8s;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** Parses a FlinkDeployment's job arguments with the benchmark job's own picocli parameters. */
final class JobArguments {

    private JobArguments() {}

    /**
     * @throws CommandLine.ParameterException if an argument is unknown or malformed
     * @throws IllegalArgumentException if a value is out of range ({@link JobParameters#validate()})
     */
    static JobParameters parse(List<String> args) {
        JobParameters parameters = new JobParameters();
        new CommandLine(parameters).parseArgs(args.toArray(new String[0]));
        return parameters.validate();
    }

    /** The rendered deployment's {@code spec.job.args}. */
    static List<String> of(Variant variant) {
        List<String> args = new ArrayList<>();
        variant.flinkDeployment().path("spec").path("job").path("args").forEach(arg -> args.add(arg.asText()));
        return args;
    }
}
