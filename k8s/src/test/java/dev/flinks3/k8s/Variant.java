package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The benchmark variants on RocksDB: one overlay each, a plugin with either the like-for-like S3 settings
 * ({@code components/like-for-like}) or its own defaults. Rendered with the real kustomize ({@link Kustomize}).
 */
enum Variant {
    FLINKS3("flinks3", Plugin.OURS, true),
    PRESTO("presto", Plugin.PRESTO, true),
    FLINKS3_DEFAULTS("flinks3-defaults", Plugin.OURS, false),
    PRESTO_DEFAULTS("presto-defaults", Plugin.PRESTO, false);

    /** The S3 filesystem plugin in a variant's image. */
    enum Plugin {
        OURS("flinks3", "flinks3-s3-benchmark", "flinks3-s3", "flinks3"),
        PRESTO("presto", "presto-s3-benchmark", "presto-s3", "s3-fs-presto");

        /** The component under manifests/variants/ that names the deployment and image. */
        final String variantFolder;

        final String deploymentName;
        /** The Dockerfile stage that builds the image, also the image tag. */
        final String imageTarget;
        /**
         * The folder under /opt/flink/plugins/ holding the plugin: in the image (presto), or filled by the init
         * container of k8s/components/flinks3 (ours).
         */
        final String pluginFolder;

        Plugin(String variantFolder, String deploymentName, String imageTarget, String pluginFolder) {
            this.variantFolder = variantFolder;
            this.deploymentName = deploymentName;
            this.imageTarget = imageTarget;
            this.pluginFolder = pluginFolder;
        }
    }

    final String overlay;
    final Plugin plugin;
    /** Whether the overlay applies {@code components/like-for-like}. */
    final boolean likeForLike;

    final String deploymentName;
    final String imageTarget;
    final String pluginFolder;

    Variant(String overlay, Plugin plugin, boolean likeForLike) {
        this.overlay = overlay;
        this.plugin = plugin;
        this.likeForLike = likeForLike;
        this.deploymentName = plugin.deploymentName;
        this.imageTarget = plugin.imageTarget;
        this.pluginFolder = plugin.pluginFolder;
    }

    /** The variant of the other plugin with the same S3 settings. */
    Variant counterpart() {
        for (Variant other : values()) {
            if (other.plugin != plugin && other.likeForLike == likeForLike) {
                return other;
            }
        }
        throw new IllegalStateException("no counterpart of " + this);
    }

    /** What {@code kubectl apply -k k8s/manifests/overlays/<overlay>} sends. */
    List<ObjectNode> render() {
        return render(ModuleFiles.MANIFESTS);
    }

    /** The same from a copy of the manifests folder. */
    List<ObjectNode> render(Path manifests) {
        return Kustomize.build(manifests.resolve("overlays").resolve(overlay));
    }

    /** The one FlinkDeployment of the rendered overlay. */
    ObjectNode flinkDeployment() {
        return only(render(), "FlinkDeployment");
    }

    /** The rendered FlinkDeployment's flinkConfiguration as strings. */
    Map<String, String> flinkConfiguration() {
        Map<String, String> configuration = new LinkedHashMap<>();
        flinkDeployment()
                .path("spec")
                .path("flinkConfiguration")
                .fields()
                .forEachRemaining(entry ->
                        configuration.put(entry.getKey(), entry.getValue().asText()));
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
