package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The structural schema of the operator's {@code FlinkDeployment} CRD (as shipped in the
 * flink-kubernetes-operator-api jar), and a check of a manifest against it as the API server's
 * validation does: no unknown fields, types, enums, int-or-string quantities. The model classes
 * accept unknown fields; this is what catches a misspelt one.
 */
final class CrdSchema {

    private static final String CRD = "META-INF/fabric8/flinkdeployments.flink.apache.org-v1.yml";
    /** Fields every object has and the CRD does not list. */
    private static final Set<String> OBJECT_FIELDS = Set.of("apiVersion", "kind", "metadata");

    private final JsonNode schema;
    private final Set<String> skipEnumAt;

    private CrdSchema(JsonNode schema, Set<String> skipEnumAt) {
        this.schema = schema;
        this.skipEnumAt = skipEnumAt;
    }

    /**
     * The v1beta1 schema of FlinkDeployment.
     *
     * @param skipEnumAt paths (as {@code .spec.flinkVersion}) whose enum is checked elsewhere, because
     *     a newer operator accepts values this API version does not list
     */
    static CrdSchema flinkDeployment(Set<String> skipEnumAt) {
        try (InputStream in = CrdSchema.class.getClassLoader().getResourceAsStream(CRD)) {
            if (in == null) {
                throw new IllegalStateException(CRD + " is not on the test classpath");
            }
            ObjectNode crd = Yaml.documents(new String(in.readAllBytes(), StandardCharsets.UTF_8), CRD).get(0);
            for (JsonNode version : crd.path("spec").path("versions")) {
                if ("v1beta1".equals(version.path("name").asText())) {
                    return new CrdSchema(version.path("schema").path("openAPIV3Schema"), skipEnumAt);
                }
            }
            throw new IllegalStateException(CRD + " has no v1beta1 version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the API server would reject, one line per problem; empty if the manifest is valid. */
    List<String> violations(ObjectNode manifest) {
        List<String> violations = new ArrayList<>();
        ObjectNode content = manifest.deepCopy();
        content.remove(OBJECT_FIELDS);
        check(content, schema, "", violations);
        return violations;
    }

    private void check(JsonNode value, JsonNode schema, String path, List<String> violations) {
        if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false) && !schema.has("properties")) {
            return;
        }
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            if (!value.isIntegralNumber() && !value.isTextual()) {
                violations.add(path + ": expected an integer or a string, was " + value);
            }
            return;
        }
        String type = schema.path("type").asText("");
        if (!hasType(value, type)) {
            violations.add(path + ": expected " + type + ", was " + value);
            return;
        }
        if (schema.has("enum") && !skipEnumAt.contains(path) && !contains(schema.get("enum"), value)) {
            violations.add(path + ": " + value + " is not one of " + schema.get("enum"));
        }
        if (value.isObject()) {
            checkFields((ObjectNode) value, schema, path, violations);
        } else if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                check(value.get(i), schema.get("items"), path + "[" + i + "]", violations);
            }
        }
    }

    private void checkFields(ObjectNode value, JsonNode schema, String path, List<String> violations) {
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.get("additionalProperties");
        for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String fieldPath = path + "." + field.getKey();
            if (properties.has(field.getKey())) {
                check(field.getValue(), properties.get(field.getKey()), fieldPath, violations);
            } else if (additional != null && additional.isObject()) {
                check(field.getValue(), additional, fieldPath, violations);
            } else if (!schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
                violations.add(fieldPath + ": unknown field");
            }
        }
    }

    private static boolean hasType(JsonNode value, String type) {
        switch (type) {
            case "object":
                return value.isObject();
            case "array":
                return value.isArray();
            case "string":
                return value.isTextual();
            case "integer":
                return value.isIntegralNumber();
            case "number":
                return value.isNumber();
            case "boolean":
                return value.isBoolean();
            default:
                return true;
        }
    }

    private static boolean contains(JsonNode values, JsonNode value) {
        for (JsonNode allowed : values) {
            if (allowed.equals(value)) {
                return true;
            }
        }
        return false;
    }
}
