package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The values of {@code k8s/manifests/settings/settings.yaml}, the one place a run is configured. */
final class Settings {

    private final ObjectNode document;

    private Settings(ObjectNode document) {
        this.document = document;
    }

    static Settings load() {
        return new Settings(Yaml.document(ModuleFiles.SETTINGS));
    }

    String bucket() {
        return text("bucket");
    }

    String region() {
        return text("region");
    }

    String roleArn() {
        return text("roleArn");
    }

    String imageRepository() {
        return text("imageRepository");
    }

    private String text(String name) {
        JsonNode value = document.get(name);
        if (value == null || !value.isTextual()) {
            throw new IllegalStateException(ModuleFiles.SETTINGS + " has no text field " + name);
        }
        return value.asText();
    }
}
