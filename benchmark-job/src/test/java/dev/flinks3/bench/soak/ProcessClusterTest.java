package dev.flinks3.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarOutputStream;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The class path {@link ProcessCluster} starts Flink's processes on, from a Flink installation's {@code lib/}. */
@Timeout(30)
class ProcessClusterTest {

    @TempDir
    Path home;

    @Test
    void aFolderWithoutLibIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> ProcessCluster.classPath(home))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--flink-home " + home + " has no lib/ folder");
    }

    @Test
    void aLibOfAnotherFlinkVersionIsRefused() throws Exception {
        emptyJar(Files.createDirectories(home.resolve("lib")).resolve("flink-core-1.20.5.jar"));

        assertThatThrownBy(() -> ProcessCluster.classPath(home))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holds no flink-core-" + EnvironmentInformation.getVersion() + ".jar");
    }

    @Test
    void whatFlinkDistCarriesAndLibLacksComesFromThisClassPath() throws Exception {
        Path core = emptyJar(Files.createDirectories(home.resolve("lib"))
                .resolve("flink-core-" + EnvironmentInformation.getVersion() + ".jar"));

        List<Path> classPath = ProcessCluster.classPath(home);

        assertThat(classPath.get(0)).isEqualTo(core);
        assertThat(classPath.stream().map(p -> p.getFileName().toString()))
                .anyMatch(name -> name.startsWith("flink-connector-files-"))
                .anyMatch(name -> name.startsWith("flink-statebackend-forst-"))
                .anyMatch(name -> name.startsWith("forstjni-"))
                .hasSize(4);
    }

    private static Path emptyJar(Path jar) throws Exception {
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream ignored = new JarOutputStream(out)) {
            return jar;
        }
    }
}
