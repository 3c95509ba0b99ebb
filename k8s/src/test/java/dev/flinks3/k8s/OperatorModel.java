package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;

/**
 * Binds a rendered manifest to the operator's {@link FlinkDeployment} model. The API version on the
 * test classpath predates Flink 2, so {@code spec.flinkVersion} is taken out before binding and
 * checked on its own ({@link #flinkVersion}).
 */
final class OperatorModel {

    private OperatorModel() {}

    static FlinkDeployment bind(ObjectNode manifest) {
        ObjectNode copy = manifest.deepCopy();
        ((ObjectNode) copy.path("spec")).remove("flinkVersion");
        return Yaml.bind(copy, FlinkDeployment.class);
    }

    /** The manifest's {@code spec.flinkVersion}, e.g. {@code v2_2}. */
    static String flinkVersion(ObjectNode manifest) {
        return manifest.path("spec").path("flinkVersion").asText();
    }
}
