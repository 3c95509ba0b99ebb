package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The scripts parse as bash, are executable, and refuse to run without what they need. */
class ScriptsTest {

    @Test
    void everyScriptIsExecutableBash() throws IOException {
        List<Path> scripts = scripts();

        assertThat(scripts).isNotEmpty().allSatisfy(script -> {
            assertThat(Files.isExecutable(script)).as(script + " is executable").isTrue();
            assertThat(Files.readAllLines(script).get(0)).isEqualTo("#!/usr/bin/env bash");
            Command.Result check = Bash.syntaxCheck(script);
            assertThat(check.exitCode()).as(check.stderr()).isZero();
        });
    }

    @Test
    void collectResultsNeedsADeploymentAndAnOutputFolder() {
        Command.Result result = Bash.run(Map.of(), ModuleFiles.SCRIPTS.resolve("collect-results.sh"));

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).contains("usage:").contains("<deployment> <output-dir>");
    }

    @Test
    void collectResultsNamesTheJobJarTheBuildProduces() {
        String jobJar = "benchmark-job/target/" + Poms.value("benchmark-job", "/project/build/finalName") + ".jar";

        assertThat(ModuleFiles.read(ModuleFiles.SCRIPTS.resolve("collect-results.sh")))
                .contains(jobJar);
    }

    @Test
    void configureStopsAtAMissingVariable() {
        Command.Result result = Bash.run(Map.of(), ModuleFiles.SCRIPTS.resolve("configure.sh"), "/nonexistent");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderr()).contains("BUCKET");
    }

    private static List<Path> scripts() throws IOException {
        try (Stream<Path> files = Files.list(ModuleFiles.SCRIPTS)) {
            return files.filter(file -> file.toString().endsWith(".sh"))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }
}
