package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renders a kustomization as {@code kubectl kustomize} does, for the features these manifests use,
 * so tests can check what {@code kubectl apply -k} would send without kubectl: resources (files and
 * folders), components, strategic-merge patches of mappings with a kind/name target, replacements
 * (see {@link Replacement}), and dropping {@code config.kubernetes.io/local-config} objects. Any
 * other field or feature is refused, so the renderer cannot silently differ from kustomize.
 *
 * <p>Order within one kustomization, as in kustomize: its resources, then each component in turn
 * (the component's resources, patches, replacements), then its own patches and replacements.
 */
final class Kustomization {

    private static final Set<String> SUPPORTED_FIELDS =
            Set.of("apiVersion", "kind", "resources", "components", "patches", "replacements");
    private static final String LOCAL_CONFIG = "config.kubernetes.io/local-config";

    private Kustomization() {}

    /** The objects {@code kubectl kustomize dir} prints, in no particular order. */
    static List<ObjectNode> build(Path dir) {
        List<ObjectNode> objects = accumulate(dir, "Kustomization", new ArrayList<>());
        objects.removeIf(object -> "true".equals(object.path("metadata").path("annotations").path(LOCAL_CONFIG).asText()));
        return objects;
    }

    /** The file a kustomization folder is described by. */
    static Path file(Path dir) {
        return dir.resolve("kustomization.yaml");
    }

    /** The paths a kustomization names: resources, components and patch files, resolved against its folder. */
    static List<Path> referencedPaths(Path dir) {
        ObjectNode kustomization = Yaml.document(file(dir));
        List<Path> paths = new ArrayList<>();
        for (String field : List.of("resources", "components")) {
            kustomization.path(field).forEach(entry -> paths.add(dir.resolve(entry.asText()).normalize()));
        }
        kustomization.path("patches").forEach(patch -> paths.add(dir.resolve(patch.path("path").asText()).normalize()));
        return paths;
    }

    private static List<ObjectNode> accumulate(Path dir, String expectedKind, List<ObjectNode> objects) {
        ObjectNode kustomization = Yaml.document(file(dir));
        String kind = kustomization.path("kind").asText("Kustomization");
        if (!kind.equals(expectedKind)) {
            throw new IllegalArgumentException(file(dir) + " is a " + kind + ", expected a " + expectedKind);
        }
        for (Iterator<String> fields = kustomization.fieldNames(); fields.hasNext(); ) {
            String field = fields.next();
            if (!SUPPORTED_FIELDS.contains(field)) {
                throw new UnsupportedOperationException(file(dir) + ": the test renderer does not support " + field);
            }
        }
        for (JsonNode resource : kustomization.path("resources")) {
            Path path = dir.resolve(resource.asText()).normalize();
            if (Files.isDirectory(path)) {
                objects.addAll(accumulate(path, "Kustomization", new ArrayList<>()));
            } else {
                objects.addAll(Yaml.documents(path));
            }
        }
        for (JsonNode component : kustomization.path("components")) {
            accumulate(dir.resolve(component.asText()).normalize(), "Component", objects);
        }
        for (JsonNode patch : kustomization.path("patches")) {
            applyPatch(dir, patch, objects);
        }
        for (JsonNode replacement : kustomization.path("replacements")) {
            Replacement.of(replacement).apply(objects);
        }
        return objects;
    }

    private static void applyPatch(Path dir, JsonNode patch, List<ObjectNode> objects) {
        ObjectNode body = Yaml.document(dir.resolve(patch.path("path").asText()));
        JsonNode target = patch.path("target");
        boolean allowNameChange = patch.path("options").path("allowNameChange").asBoolean(false);
        List<ObjectNode> targets = Selector.of(target).matching(objects);
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("patch " + patch.path("path").asText() + " matches no object: " + target);
        }
        for (ObjectNode object : targets) {
            String nameBefore = object.path("metadata").path("name").asText();
            merge(object, body);
            if (!allowNameChange && !nameBefore.equals(object.path("metadata").path("name").asText())) {
                throw new IllegalArgumentException("patch " + patch.path("path").asText()
                        + " renames " + nameBefore + " without options.allowNameChange");
            }
        }
    }

    /** Strategic merge of mappings: nested mappings merge, scalars replace, null deletes. */
    private static void merge(ObjectNode target, ObjectNode patch) {
        for (Iterator<Map.Entry<String, JsonNode>> fields = patch.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode value = field.getValue();
            JsonNode existing = target.get(field.getKey());
            if (value.isNull()) {
                target.remove(field.getKey());
            } else if (value.isArray()) {
                // Kustomize merges some lists by key (containers by name) and replaces others.
                throw new UnsupportedOperationException("the test renderer does not merge lists: " + field.getKey());
            } else if (value.isObject() && existing != null && existing.isObject()) {
                merge((ObjectNode) existing, (ObjectNode) value);
            } else {
                target.set(field.getKey(), value.deepCopy());
            }
        }
    }
}
