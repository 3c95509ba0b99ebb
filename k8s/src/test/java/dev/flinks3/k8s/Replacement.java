package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One entry of a kustomization's {@code replacements}: copies the value at a source object's field
 * path to field paths of target objects, whole, or into one part of a delimited string
 * ({@code options.delimiter} and {@code index}), or creating the path ({@code options.create}).
 */
final class Replacement {

    private static final Set<String> SUPPORTED_OPTIONS = Set.of("delimiter", "index", "create");
    // Kustomize creates a missing field from a quoted string as an unquoted scalar, so "4" would
    // arrive as the number 4: such values need a placeholder in the target instead.
    private static final Pattern NOT_STRING_WHEN_UNQUOTED = Pattern.compile("-?[0-9.]+|true|false|null");

    private final JsonNode spec;

    private Replacement(JsonNode spec) {
        this.spec = spec;
    }

    static Replacement of(JsonNode spec) {
        return new Replacement(spec);
    }

    void apply(List<ObjectNode> objects) {
        JsonNode source = spec.path("source");
        FieldPath sourcePath = FieldPath.parse(source.path("fieldPath").asText("metadata.name"));
        ObjectNode sourceCopy = source.deepCopy();
        sourceCopy.remove("fieldPath");
        List<ObjectNode> sources = Selector.of(sourceCopy).matching(objects);
        if (sources.size() != 1) {
            throw new IllegalArgumentException("replacement source " + source + " matches " + sources.size() + " objects");
        }
        JsonNode value = sourcePath.get(sources.get(0));
        if (value == null) {
            throw new IllegalArgumentException("replacement source has no field " + sourcePath);
        }
        for (JsonNode target : spec.path("targets")) {
            for (ObjectNode object : Selector.of(target.path("select")).matching(objects)) {
                for (JsonNode fieldPath : target.path("fieldPaths")) {
                    replace(object, FieldPath.parse(fieldPath.asText()), value, target.path("options"));
                }
            }
        }
    }

    private static void replace(ObjectNode object, FieldPath path, JsonNode value, JsonNode options) {
        for (Iterator<String> names = options.fieldNames(); names.hasNext(); ) {
            String option = names.next();
            if (!SUPPORTED_OPTIONS.contains(option)) {
                throw new UnsupportedOperationException("the test renderer does not support option " + option);
            }
        }
        boolean create = options.path("create").asBoolean(false);
        if (options.has("delimiter")) {
            JsonNode current = path.get(object);
            if (current == null || !current.isTextual() || !value.isValueNode()) {
                throw new IllegalArgumentException(path + " is not a string to replace a part of");
            }
            String[] parts = current.asText().split(Pattern.quote(options.get("delimiter").asText()), -1);
            int index = options.path("index").asInt(0);
            if (index < 0 || index >= parts.length) {
                throw new IllegalArgumentException(path + " has no part " + index + ": " + current.asText());
            }
            parts[index] = value.asText();
            path.set(object, new TextNode(String.join(options.get("delimiter").asText(), parts)), false);
            return;
        }
        if (create && path.get(object) == null && value.isTextual()
                && NOT_STRING_WHEN_UNQUOTED.matcher(value.asText()).matches()) {
            throw new IllegalArgumentException("kustomize would create " + path + " as a non-string from \""
                    + value.asText() + "\"; give the target a placeholder instead");
        }
        path.set(object, value.deepCopy(), create);
    }
}
