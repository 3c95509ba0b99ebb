package dev.flinks3.bench.fsbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import dev.flinks3.bench.fsbench.workloads.WorkloadSizes;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Timeout(60)
class FsBenchmarkMainTest {

    private static FsBenchmarkMain parse(String... args) {
        FsBenchmarkMain command = new FsBenchmarkMain();
        new CommandLine(command).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
        return command;
    }

    @Test
    void defaultsAreTheDocumentedSizes() {
        FsBenchmarkMain command = parse();

        assertThat(command.profile).isEqualTo("wan");
        assertThat(command.plugins).containsExactly("ours", "native", "presto", "hadoop");
        assertThat(command.rounds).isEqualTo(2);
        assertThat(command.workloads).containsExactly(FsWorkload.values());
        assertThat(command.sizes()).isEqualTo(WorkloadSizes.defaults());
    }

    @Test
    void concurrentStreamsTakeTheGivenSchemesInTurn() {
        WorkloadSizes sizes = parse("--concurrent-streams", "5", "--concurrent-streams-schemes", "s3,s3a")
                .sizes();

        assertThat(sizes.streamSchemes()).containsExactly("s3", "s3a");
        assertThat(java.util.stream.IntStream.range(0, 5).mapToObj(sizes::streamScheme))
                .containsExactly("s3", "s3a", "s3", "s3a", "s3");
        assertThat(sizes.warmUp().streamSchemes()).containsExactly("s3", "s3a");
        assertThat(parse().sizes().streamSchemes()).as("the root's own scheme").isEmpty();
        assertThat(parse().sizes().streamScheme(3)).isNull();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> parse("--concurrent-streams-schemes", "s3,S3A!").sizes())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("S3A!");
    }

    @Test
    void givenWorkloadsReplaceTheDefaultList() {
        FsBenchmarkMain command = parse("--workloads", "small_files,RECURSIVE_DELETE");

        assertThat(command.workloads).containsExactly(FsWorkload.SMALL_FILES, FsWorkload.RECURSIVE_DELETE);
    }

    @Test
    void sizesAndPluginJarsAreParsed() {
        FsBenchmarkMain command = parse(
                "--profile",
                "lan",
                "--plugins",
                "ours,native",
                "--stream-mib",
                "128",
                "--plugin",
                "native=/tmp/native.jar",
                "--restore-file-mib",
                "8");

        assertThat(command.plugins).containsExactly("ours", "native");
        assertThat(command.sizes().streamBytes()).isEqualTo(128L << 20);
        assertThat(command.sizes().restoreFileBytes()).isEqualTo(8L << 20);
        assertThat(command.pluginJars).containsEntry("native", Path.of("/tmp/native.jar"));
    }

    @Test
    void dEntriesReachEveryContenderAndItsOwnConfWins() {
        FsBenchmarkMain command = parse(
                "--contenders",
                "ours,native",
                "-Ds3.upload.part.size=16mb",
                "--conf",
                "ours:s3.upload.part.size=32mb",
                "--conf",
                "ours:s3.client=crt");

        assertThat(command.contenderConfiguration())
                .containsExactly(
                        Map.entry("ours", Map.of("s3.upload.part.size", "32mb", "s3.client", "crt")),
                        Map.entry("native", Map.of("s3.upload.part.size", "16mb")));
    }

    @Command(name = "bench")
    static final class Parent {}

    @Test
    void theReportedCommandIsTheOneTyped() {
        FsBenchmarkMain alone = new FsBenchmarkMain();
        new CommandLine(alone).parseArgs("--rounds", "3");
        FsBenchmarkMain sub = new FsBenchmarkMain();
        new CommandLine(new Parent()).addSubcommand("fsbench", sub).parseArgs("fsbench", "--profile", "lan");

        assertThat(alone.commandLine()).isEqualTo("fsbench --rounds 3");
        assertThat(sub.commandLine()).isEqualTo("bench fsbench --profile lan");
    }
}
