package dev.flinks3.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * The benchmark jar's options as a user types them: kebab-case everywhere, the camelCase spellings of
 * earlier versions (in existing manifests and scripts) parsed into the same option, and the same name
 * for the same thing in every subcommand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BenchmarkCliOptionsTest {

    /** What {@code run-contender} requires besides the option under test. */
    private static final List<String> RUN_CONTENDER_REQUIRED = List.of(
            "--contender",
            "ours",
            "--plugin-jar",
            "p.jar",
            "--checkpoint-dir",
            "s3://bucket/checkpoints",
            "--flink-conf",
            "flink.properties",
            "--work-dir",
            "work",
            "--result",
            "result.json");

    @ParameterizedTest(name = "{0} {1} = {3} {2}")
    @CsvSource({
        "local, --num-keys, --numKeys, 4096",
        "local, --value-size-kb, --valueSizeKb, 16",
        "local, --target-state-gb, --targetStateGb, 0.5",
        "local, --records-per-second, --recordsPerSecond, 250.0",
        "local, --checkpoint-interval, --checkpointInterval, 3s",
        "local, --min-pause, --minPause, 250ms",
        "local, --checkpoint-timeout, --checkpointTimeout, 2min",
        "local, --restore-parallelism, --restoreParallelism, 1",
        "compare, --num-keys, --numKeys, 4096",
        "compare, --restore-parallelism, --restoreParallelism, 1",
        "cluster, --num-keys, --numKeys, 4096",
        "cluster, --restore-parallelism, --restoreParallelism, 1",
        "cluster, --checkpoint-dir, --checkpointDir, s3://bucket/checkpoints",
        "run-contender, --restore-parallelism, --restoreParallelism, 1",
        "fsbench, --output, --out, target/fs",
        "fsbench, --s3-profile, --profile, lan",
        "fsbench, --contenders, --plugins, 'ours,native'",
    })
    void theOldSpellingSetsTheSameOptionAsTheNewOne(String subcommand, String name, String oldName, String value) {
        Object typed = parse(subcommand, name, value).matchedOption(name).getValue();
        Object typedFromOld =
                parse(subcommand, oldName, value).matchedOption(name).getValue();

        assertThat(typed).isNotNull();
        assertThat(typedFromOld).isEqualTo(typed);
    }

    @Test
    void theJobParametersAChildJvmGetsParseInEverySubcommandThatRunsTheJob() {
        List<String> arguments =
                JobParameters.fromMap(java.util.Map.of("numKeys", "8192")).toArguments();
        for (String subcommand : List.of("local", "compare", "cluster", "run-contender")) {
            List<String> args = new ArrayList<>(arguments);
            if (subcommand.equals("run-contender")) {
                args.addAll(List.of("--restore-parallelism", "1"));
            }
            ParseResult result = parse(subcommand, args.toArray(String[]::new));
            assertThat(result.matchedOption("--num-keys").<Integer>getValue())
                    .as(subcommand)
                    .isEqualTo(8192);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "compare", "fsbench"})
    void theSessionsShareTheirOptionNames(String subcommand) {
        CommandSpec spec = root().getSubcommands().get(subcommand).getCommandSpec();
        for (String name : List.of("--output", "--s3-profile", "-D", "--conf", "--plugin", "--repo-root")) {
            assertThat(spec.findOption(name)).as(subcommand + " " + name).isNotNull();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"cluster", "report"})
    void theClusterCommandsNameTheirOutputFolderAlike(String subcommand) {
        assertThat(root().getSubcommands().get(subcommand).getCommandSpec().findOption("--output"))
                .isNotNull();
    }

    @Test
    void everyHelpTextIsAValidFormatString() {
        // picocli formats each description line with String.format; a bare '%' ("5% of") makes it print a
        // warning and the raw text instead of the help the user asked for. The annotations' own text is checked:
        // what OptionSpec.description() returns is already formatted.
        List<String> broken = new ArrayList<>();
        List<CommandSpec> specs = new ArrayList<>();
        for (CommandLine subcommand : root().getSubcommands().values()) {
            specs.add(subcommand.getCommandSpec());
            specs.addAll(subcommand.getCommandSpec().mixins().values());
        }
        for (CommandSpec spec : specs) {
            for (Class<?> type = spec.userObject().getClass(); type != null; type = type.getSuperclass()) {
                for (java.lang.reflect.Field field : type.getDeclaredFields()) {
                    CommandLine.Option option = field.getAnnotation(CommandLine.Option.class);
                    if (option == null) {
                        continue;
                    }
                    for (String line : option.description()) {
                        try {
                            String.format(line.replaceAll("\\$\\{[^}]*}", "x"));
                        } catch (IllegalFormatException e) {
                            broken.add(type.getSimpleName() + "." + field.getName() + ": " + e);
                        }
                    }
                }
            }
        }
        assertThat(specs).isNotEmpty();
        assertThat(broken).isEmpty();
    }

    private static ParseResult parse(String subcommand, String... option) {
        List<String> args = new ArrayList<>(List.of(subcommand));
        args.addAll(List.of(option));
        if (subcommand.equals("run-contender")) {
            args.addAll(RUN_CONTENDER_REQUIRED);
        }
        return root().parseArgs(args.toArray(String[]::new)).subcommand();
    }

    private static CommandLine root() {
        return BenchmarkCli.commandLine();
    }
}
