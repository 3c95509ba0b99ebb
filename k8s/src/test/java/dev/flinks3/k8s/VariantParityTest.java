package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The two plugins' variants with the same S3 settings (like-for-like, or each on its defaults) differ only
 * in what makes them variants: name, image tag, checkpoint paths and the keys of their own plugin.
 * Everything that shapes the measurement is the same.
 */
class VariantParityTest {

    private static final List<String> PATH_KEYS =
            List.of("execution.checkpointing.dir", "execution.checkpointing.savepoint-dir");

    @ParameterizedTest
    @EnumSource(
            value = Variant.class,
            names = {"FLINKS3", "FLINKS3_DEFAULTS"})
    void resourcesPodTemplatesAndJobAreTheSame(Variant ours) {
        // Ours adds its plugin with the component k8s/components/flinks3; everything else is the same.
        ObjectNode nativeSpec = Flinks3ComponentTest.withoutComponent(Variant.spec(ours.flinkDeployment()));
        ObjectNode prestoSpec = (ObjectNode) Variant.spec(ours.counterpart().flinkDeployment());

        for (String field : List.of(
                "jobManager",
                "taskManager",
                "podTemplate",
                "job",
                "flinkVersion",
                "serviceAccount",
                "mode",
                "imagePullPolicy")) {
            assertThat(nativeSpec.get(field)).as(field).isNotNull().isEqualTo(prestoSpec.get(field));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Variant.class,
            names = {"FLINKS3", "FLINKS3_DEFAULTS"})
    void flinkConfigurationIsTheSameApartFromPluginKeysAndPaths(Variant ours) {
        Predicate<String> shared = key -> !KnownKeys.isS3Key(key)
                && !PATH_KEYS.contains(key)
                && !Flinks3ComponentTest.componentConfigurationKeys().contains(key);

        assertThat(filter(ours.flinkConfiguration(), shared))
                .isEqualTo(filter(ours.counterpart().flinkConfiguration(), shared));
    }

    @ParameterizedTest
    @EnumSource(
            value = Variant.class,
            names = {"FLINKS3", "FLINKS3_DEFAULTS"})
    void checkpointPathsDifferOnlyByDeploymentName(Variant ours) {
        for (String key : PATH_KEYS) {
            String nativePath = ours.flinkConfiguration().get(key);
            String prestoPath = ours.counterpart().flinkConfiguration().get(key);

            assertThat(nativePath.replace(ours.deploymentName, ours.counterpart().deploymentName))
                    .isEqualTo(prestoPath);
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void imageIsTheSettingsRepositoryWithThePluginsTag(Variant variant) {
        assertThat(Variant.spec(variant.flinkDeployment()).path("image").asText())
                .isEqualTo(Settings.load().imageRepository() + ":" + variant.imageTarget);
    }

    @Test
    void everyOtherObjectIsIdentical() {
        List<ObjectNode> expected = sharedObjects(Variant.FLINKS3);

        assertThat(expected).isNotEmpty();
        for (Variant variant : Variant.values()) {
            assertThat(sharedObjects(variant)).as(variant.overlay).isEqualTo(expected);
        }
    }

    private static List<ObjectNode> sharedObjects(Variant variant) {
        return variant.render().stream()
                .filter(object -> !"FlinkDeployment".equals(object.path("kind").asText()))
                .collect(Collectors.toList());
    }

    private static Map<String, String> filter(Map<String, String> configuration, Predicate<String> keep) {
        return configuration.entrySet().stream()
                .filter(entry -> keep.test(entry.getKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
