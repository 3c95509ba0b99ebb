package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The two variants differ only in what makes them variants: name, image tag, checkpoint paths and
 * the keys of their own plugin. Everything that shapes the measurement is the same.
 */
class VariantParityTest {

    private static final List<String> PATH_KEYS =
            List.of("execution.checkpointing.dir", "execution.checkpointing.savepoint-dir");

    @Test
    void resourcesPodTemplatesAndJobAreTheSame() {
        ObjectNode nativeSpec = (ObjectNode) Variant.spec(Variant.NATIVE.flinkDeployment());
        ObjectNode prestoSpec = (ObjectNode) Variant.spec(Variant.PRESTO.flinkDeployment());

        for (String field : List.of("jobManager", "taskManager", "podTemplate", "job", "flinkVersion",
                "serviceAccount", "mode", "imagePullPolicy")) {
            assertThat(nativeSpec.get(field)).as(field).isNotNull().isEqualTo(prestoSpec.get(field));
        }
    }

    @Test
    void flinkConfigurationIsTheSameApartFromPluginKeysAndPaths() {
        Predicate<String> shared = key -> !KnownKeys.isS3Key(key) && !PATH_KEYS.contains(key);

        assertThat(filter(Variant.NATIVE.flinkConfiguration(), shared))
                .isEqualTo(filter(Variant.PRESTO.flinkConfiguration(), shared));
    }

    @Test
    void checkpointPathsDifferOnlyByDeploymentName() {
        for (String key : PATH_KEYS) {
            String nativePath = Variant.NATIVE.flinkConfiguration().get(key);
            String prestoPath = Variant.PRESTO.flinkConfiguration().get(key);

            assertThat(nativePath.replace(Variant.NATIVE.deploymentName, Variant.PRESTO.deploymentName))
                    .isEqualTo(prestoPath);
        }
    }

    @Test
    void imagesDifferOnlyByTag() {
        String nativeImage = Variant.spec(Variant.NATIVE.flinkDeployment()).path("image").asText();
        String prestoImage = Variant.spec(Variant.PRESTO.flinkDeployment()).path("image").asText();

        assertThat(nativeImage).isEqualTo(Settings.load().imageRepository() + ":" + Variant.NATIVE.imageTarget);
        assertThat(prestoImage).isEqualTo(Settings.load().imageRepository() + ":" + Variant.PRESTO.imageTarget);
    }

    @Test
    void everyOtherObjectIsIdentical() {
        assertThat(sharedObjects(Variant.NATIVE)).isEqualTo(sharedObjects(Variant.PRESTO)).isNotEmpty();
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
