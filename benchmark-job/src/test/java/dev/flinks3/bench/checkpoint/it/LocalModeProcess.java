package dev.flinks3.bench.checkpoint.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.common.Contender;
import dev.flinks3.bench.common.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs {@code java -jar target/flinks3-benchmark-job.jar local} as a user does, with this repository's
 * plugin jar as contender {@code ours}, and reads what it wrote.
 *
 * @param exitCode the process's exit code
 * @param console everything it printed
 * @param results its {@code results.json}
 */
record LocalModeProcess(int exitCode, String console, BenchmarkResults results) {

    static final Path TARGET = Path.of("target");

    /**
     * Runs local mode into a fresh {@code output} folder (work files kept).
     *
     * @param arguments the options after {@code local --plugin ours=... --contender ours}
     */
    static LocalModeProcess run(Path output, List<String> arguments) throws Exception {
        return run("local", output, arguments);
    }

    /**
     * Runs a command of the jar that takes local mode's options ({@code local}, {@code soak}) into a fresh
     * {@code output} folder (work files kept).
     */
    static LocalModeProcess run(String mode, Path output, List<String> arguments) throws Exception {
        return run(mode, ourPluginJar(), output, arguments);
    }

    /** As {@link #run(String, Path, List)} with another jar as contender {@code ours}, e.g. a test build of it. */
    static LocalModeProcess run(String mode, Path pluginJar, Path output, List<String> arguments) throws Exception {
        deleteRecursively(output);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                TARGET.resolve("flinks3-benchmark-job.jar").toString(),
                mode,
                "--plugin",
                "ours=" + pluginJar,
                "--contender",
                "ours"));
        command.addAll(arguments);
        // The tests read the server's objects from the output folder: on disk, kept after the run.
        command.addAll(List.of("--output", output.toString(), "--keep-work", "--server-storage", "disk"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String console = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(4, TimeUnit.MINUTES)).isTrue();
        return new LocalModeProcess(
                process.exitValue(), console, Json.read(output.resolve("results.json"), BenchmarkResults.class));
    }

    /** The plugin jar the plugin module builds. */
    static Path ourPluginJar() throws IOException {
        return Contender.resolve(Contender.OURS, Map.of(), Path.of("..")).jar();
    }

    /** Deletes {@code root} and everything under it, if it exists. */
    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
