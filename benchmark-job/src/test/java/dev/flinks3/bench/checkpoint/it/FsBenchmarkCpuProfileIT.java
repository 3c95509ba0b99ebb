package dev.flinks3.bench.checkpoint.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.common.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code java -jar target/flinks3-benchmark-job.jar fsbench --cpu-profile} with this repository's plugin
 * as the only contender, on positional reads: each measured workload's timed part is recorded in the
 * contender's JVM, and {@code profiles.md} shows where its threads spent CPU, our read path among the
 * sampled methods; with {@code --cpu-samples false} only the thread groups' CPU.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FsBenchmarkCpuProfileIT {

    private static final Path OUTPUT = LocalModeProcess.TARGET.resolve("fsbench-cpu-profile");
    private static final Path THREADS_ONLY = LocalModeProcess.TARGET.resolve("fsbench-cpu-profile-threads");

    @Test
    void eachTimedPartIsRecordedAndSummed() throws Exception {
        String console = fsbench(OUTPUT, false);

        Path jfr = OUTPUT.resolve("profiles").resolve("positional_reads-ours-r1.jfr");
        assertThat(jfr).as(console).isNotEmptyFile();
        Map<?, ?> window =
                Json.read(OUTPUT.resolve("profiles").resolve("positional_reads-ours-r1.jfr.window.json"), Map.class);
        assertThat(window.get("from")).as("the timed part's start: %s", window).isNotNull();
        Map<?, ?> threads = (Map<?, ?>) window.get("threadSeconds");
        // The JVM's main thread, which runs the workload, has the launcher's name in Linux.
        assertThat(threads.containsKey("java"))
                .as("CPU seconds per thread group: %s", threads)
                .isTrue();
        assertThat(threads.containsKey("C2 CompilerThre"))
                .as("the JIT's threads too: %s", threads)
                .isTrue();
        String profiles = Files.readString(OUTPUT.resolve("profiles.md"));
        assertThat(profiles)
                .contains("## positional reads")
                .contains("### ours, round 1: ")
                .contains("CPU of all threads: ")
                .contains("| java | ")
                .containsPattern("\\| dev\\.flinks3\\.transfer\\.read\\.S3SeekableInputStream\\.\\w+ \\| ours \\|");
        assertThat(console).contains("CPU profiles: ");
    }

    @Test
    void withoutSamplesOnlyTheThreadsCpuIsKeptAndTheServersBeside() throws Exception {
        String console = fsbench(THREADS_ONLY, true, "--cpu-samples", "false");

        Path profiles = THREADS_ONLY.resolve("profiles");
        assertThat(profiles.resolve("positional_reads-ours-r1.jfr")).as(console).doesNotExist();
        assertThat(profiles.resolve("positional_reads-ours-r1.jfr.window.json")).isNotEmptyFile();
        Map<?, ?> server = Json.read(profiles.resolve("positional_reads-ours-r1.jfr.server.json"), Map.class);
        assertThat(server.keySet().stream().map(String::valueOf))
                .as("the S3 server's CPU seconds per thread group: %s", server)
                .anyMatch(group -> group.startsWith("S3Proxy-Jetty"));
        assertThat(Files.readString(THREADS_ONLY.resolve("profiles.md")))
                .contains("### ours, round 1: ", "CPU of all threads: ", "| java | ")
                .contains("The S3 server's threads (the part started with the server ", "| S3Proxy-Jetty-# | ")
                .doesNotContain("samples (");
        assertThat(console).containsPattern("\\[warm-up\\] pass 1: the S3 server's warm-up ran 1 pass\\(es\\)");
        assertThat(Files.readString(THREADS_ONLY.resolve("results.md")))
                .containsPattern("; the S3 server's warm-up ran \\d pass\\(es\\) of the warm-up round, its JIT"
                        + " compilers taking \\d+% of its [0-9.]+ CPU-s in the last");
    }

    /**
     * Runs fsbench with --cpu-profile into a fresh {@code out}, with or without the server's warm-up round, the given
     * options last; returns its console.
     */
    private static String fsbench(Path out, boolean warmUp, String... options) throws Exception {
        LocalModeProcess.deleteRecursively(out);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                LocalModeProcess.TARGET.resolve("flinks3-benchmark-job.jar").toString(),
                "fsbench",
                "--plugin",
                "ours=" + LocalModeProcess.ourPluginJar(),
                "--contenders",
                "ours",
                "--rounds",
                "1",
                "--workloads",
                "POSITIONAL_READS",
                "--positional-reads",
                "300",
                "--warm-up",
                Boolean.toString(warmUp),
                "--jit-warm-up",
                "false",
                "--pin-cpus",
                "false",
                "--s3-profile",
                "lan",
                "--client-heap",
                "512m",
                "--cpu-profile",
                "--out",
                out.toString()));
        command.addAll(List.of(options));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String console = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(4, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(console).isZero();
        return console;
    }
}
