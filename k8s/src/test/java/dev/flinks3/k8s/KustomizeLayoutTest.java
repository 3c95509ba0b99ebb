package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The kustomize folders hang together: every file is named by some kustomization, overlays compose in
 * order, and kustomize's output keeps no placeholder. (That every named path exists, kustomize itself
 * checks when {@link FlinkDeploymentManifestTest} renders each overlay.)
 */
class KustomizeLayoutTest {

    static List<String> overlays() {
        return ModuleFiles.overlays();
    }

    @Test
    void everyManifestFileIsUsedBySomeKustomization() throws IOException {
        Set<Path> referenced = new HashSet<>();
        for (Path dir : kustomizationFolders()) {
            referencedPaths(dir).stream().filter(Files::isRegularFile).forEach(referenced::add);
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
    void overlayAppliesTheServiceAccountTheVariantThenTheSettingsThenTheLikeForLikeKeys(Variant variant) {
        List<Path> expected = new ArrayList<>(List.of(
                ModuleFiles.MANIFESTS.resolve("base"),
                ModuleFiles.MODULE.resolve("components/flinks3-service-account"),
                ModuleFiles.MANIFESTS.resolve("variants").resolve(variant.plugin.variantFolder),
                ModuleFiles.MANIFESTS.resolve("settings")));
        if (variant.likeForLike) {
            expected.add(ModuleFiles.MANIFESTS.resolve("components/like-for-like"));
        }

        assertThat(referencedPaths(ModuleFiles.OVERLAYS.resolve(variant.overlay)))
                .isEqualTo(expected);
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void renderedObjectsLeaveNoPlaceholderBehind(String overlay) {
        String rendered = Kustomize.build(ModuleFiles.OVERLAYS.resolve(overlay)).toString();

        assertThat(rendered)
                .doesNotContain("set-by-settings", "BUCKET", "DEPLOYMENT", "REPOSITORY", "BenchmarkSettings");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void everyOverlaySendsTheSameKindsOfObjects(String overlay) {
        List<String> kinds = Kustomize.build(ModuleFiles.OVERLAYS.resolve(overlay)).stream()
                .map(object -> object.path("kind").asText())
                .sorted()
                .collect(Collectors.toList());

        assertThat(kinds).containsExactly("FlinkDeployment", "Namespace", "Role", "RoleBinding", "ServiceAccount");
    }

    /** The paths a kustomization names: resources, components and patch files, resolved against its folder. */
    private static List<Path> referencedPaths(Path dir) {
        ObjectNode kustomization = Yaml.document(dir.resolve("kustomization.yaml"));
        List<Path> paths = new ArrayList<>();
        for (String field : List.of("resources", "components")) {
            kustomization
                    .path(field)
                    .forEach(entry -> paths.add(dir.resolve(entry.asText()).normalize()));
        }
        kustomization
                .path("patches")
                .forEach(patch ->
                        paths.add(dir.resolve(patch.path("path").asText()).normalize()));
        return paths;
    }

    private static List<Path> kustomizationFolders() throws IOException {
        try (Stream<Path> files = Files.walk(ModuleFiles.MANIFESTS)) {
            return files.filter(file -> file.getFileName().toString().equals("kustomization.yaml"))
                    .map(Path::getParent)
                    .collect(Collectors.toList());
        }
    }
}
