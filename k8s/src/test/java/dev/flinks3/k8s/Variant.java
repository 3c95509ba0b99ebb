package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The two benchmark variants: their overlay, deployment name, image build target and plugin folder. */
enum Variant {
    NATIVE("native", "native-s3-benchmark", "native-s3", "s3-fs-native"),
    PRESTO("presto", "presto-s3-benchmark", "presto-s3", "s3-fs-presto");

    final String overlay;
    final String deploymentName;
    /** The Dockerfile stage that builds this variant's image, also the image tag. */
    final String imageTarget;
    /** The folder under /opt/flink/plugins/ holding this variant's S3 plugin. */
    final String pluginFolder;

    Variant(String overlay, String deploymentName, String imageTarget, String pluginFolder) {
        this.overlay = overlay;
        this.deploymentName = deploymentName;
        this.imageTarget = imageTarget;
        this.pluginFolder = pluginFolder;
    }

    /** What {@code kubectl apply -k k8s/manifests/overlays/<overlay>} sends. */
    List<ObjectNode> render() {
        return render(ModuleFiles.MANIFESTS);
    }

    /** The same from a copy of the manifests folder. */
    List<ObjectNode> render(java.nio.file.Path manifests) {
        return Kustomization.build(manifests.resolve("overlays").resolve(overlay));
    }

    /** The one FlinkDeployment of the rendered overlay. */
    ObjectNode flinkDeployment() {
        return only(render(), "FlinkDeployment");
    }

    /** The rendered FlinkDeployment's flinkConfiguration as strings. */
    Map<String, String> flinkConfiguration() {
        Map<String, String> configuration = new LinkedHashMap<>();
        flinkDeployment().path("spec").path("flinkConfiguration").fields()
                .forEachRemaining(entry -> configuration.put(entry.getKey(), entry.getValue().asText()));
        return configuration;
    }

    static ObjectNode only(List<ObjectNode> objects, String kind) {
        List<ObjectNode> matching = objects.stream()
                .filter(object -> kind.equals(object.path("kind").asText()))
                .collect(Collectors.toList());
        if (matching.size() != 1) {
            throw new AssertionError("expected one " + kind + ", found " + matching.size());
        }
        return matching.get(0);
    }

    static JsonNode spec(ObjectNode flinkDeployment) {
        return flinkDeployment.path("spec");
    }
}
