package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The kustomize folders hang together: every named file exists, every file is named, overlays compose in order. */
class KustomizeLayoutTest {

    @Test
    void everyPathAKustomizationNamesExists() throws IOException {
        for (Path dir : kustomizationFolders()) {
            assertThat(Kustomization.referencedPaths(dir)).as(dir.toString()).isNotEmpty().allSatisfy(path ->
                    assertThat(Files.isDirectory(path) ? Kustomization.file(path) : path).exists());
        }
    }

    @Test
    void everyManifestFileIsUsedBySomeKustomization() throws IOException {
        Set<Path> referenced = new HashSet<>();
        for (Path dir : kustomizationFolders()) {
            Kustomization.referencedPaths(dir).stream().filter(Files::isRegularFile).forEach(referenced::add);
        }
        try (Stream<Path> files = Files.walk(ModuleFiles.MANIFESTS)) {
            List<Path> unused = files.filter(Files::isRegularFile)
                    .filter(file -> !file.getFileName().toString().equals("kustomization.yaml"))
                    .filter(file -> !referenced.contains(file))
                    .collect(Collectors.toList());
            assertThat(unused).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void overlayAppliesTheVariantBeforeTheSettings(Variant variant) {
        Path overlay = ModuleFiles.OVERLAYS.resolve(variant.overlay);

        assertThat(Kustomization.referencedPaths(overlay)).containsExactly(
                ModuleFiles.MANIFESTS.resolve("base"),
                ModuleFiles.MANIFESTS.resolve("variants").resolve(variant.overlay),
                ModuleFiles.MANIFESTS.resolve("settings"));
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void renderedObjectsLeaveNoPlaceholderBehind(Variant variant) {
        String rendered = variant.render().toString();

        assertThat(rendered).doesNotContain("set-by-settings", "BUCKET", "DEPLOYMENT", "REPOSITORY", "BenchmarkSettings");
    }

    @Test
    void theTestRendererRefusesWhatItDoesNotImplement(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("kustomization.yaml"), "namePrefix: x-\nresources: []\n");

        assertThatThrownBy(() -> Kustomization.build(dir))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("namePrefix");
    }

    private static List<Path> kustomizationFolders() throws IOException {
        try (Stream<Path> files = Files.walk(ModuleFiles.MANIFESTS)) {
            return files.filter(file -> file.getFileName().toString().equals("kustomization.yaml"))
                    .map(Path::getParent)
                    .collect(Collectors.toList());
        }
    }
}
