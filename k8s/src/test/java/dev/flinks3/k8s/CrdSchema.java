package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code FlinkDeployment} CRD of the Flink Kubernetes Operator version k8s/README.md installs
 * ({@value #OPERATOR_VERSION}; the file in {@code src/test/resources/crds/} says where it comes from), and a
 * check of a manifest against its {@code v1beta1} schema with a JSON Schema validator.
 *
 * <p>The CRD's {@code openAPIV3Schema} is a Kubernetes structural schema, which JSON Schema draft 4 reads as
 * written (types, enums, {@code anyOf} for int-or-string, {@code additionalProperties} for maps). Where the
 * API server is stricter than JSON Schema, the schema is tightened first, as the server validates: an object
 * with {@code properties} takes no other field unless it is marked
 * {@code x-kubernetes-preserve-unknown-fields} (kubectl asks for strict field validation by default since
 * 1.27, so a misspelt field is rejected), and the root also takes {@code apiVersion}, {@code kind} and
 * {@code metadata}, which every object has and the CRD does not list.
 */
final class CrdSchema {

    static final String OPERATOR_VERSION = "1.15.0";
    private static final String CRD = "crds/flinkdeployments.flink.apache.org-v1.yml";
    private static final String SERVED_VERSION = "v1beta1";

    private final String apiVersion;
    private final JsonNode openApiSchema;
    private final Schema schema;

    private CrdSchema(String apiVersion, JsonNode openApiSchema, Schema schema) {
        this.apiVersion = apiVersion;
        this.openApiSchema = openApiSchema;
        this.schema = schema;
    }

    /** The schema of FlinkDeployment {@code v1beta1}, read from the test resources. */
    static CrdSchema flinkDeployment() {
        ObjectNode crd = Yaml.documents(resource(), CRD).get(0);
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (SERVED_VERSION.equals(version.path("name").asText())) {
                JsonNode openApi = version.path("schema").path("openAPIV3Schema");
                ObjectNode strict = openApi.deepCopy();
                ObjectNode root = strict.with("properties");
                root.putObject("apiVersion").put("type", "string");
                root.putObject("kind").put("type", "string");
                root.putObject("metadata").put("type", "object");
                closeObjects(strict);
                Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4)
                        .getSchema(strict);
                return new CrdSchema(crd.path("spec").path("group").asText() + "/" + SERVED_VERSION, openApi, schema);
            }
        }
        throw new IllegalStateException(CRD + " has no version " + SERVED_VERSION);
    }

    /** The {@code apiVersion} a FlinkDeployment of this CRD carries, {@code flink.apache.org/v1beta1}. */
    String apiVersion() {
        return apiVersion;
    }

    /** What the API server would reject, one line per problem (where, and what is wrong); empty if valid. */
    List<String> violations(ObjectNode manifest) {
        return schema.validate(manifest).stream()
                .map(error -> error.getInstanceLocation() + ": " + error.getMessage())
                .collect(Collectors.toList());
    }

    /** The values the schema allows for {@code spec.flinkVersion}: the Flink versions this operator runs. */
    List<String> flinkVersions() {
        List<String> versions = new ArrayList<>();
        openApiSchema
                .path("properties")
                .path("spec")
                .path("properties")
                .path("flinkVersion")
                .path("enum")
                .forEach(value -> versions.add(value.asText()));
        return versions;
    }

    /**
     * Adds {@code additionalProperties: false} to every object schema with {@code properties} that neither
     * describes a map nor preserves unknown fields, walking the subschemas this CRD uses.
     */
    private static void closeObjects(JsonNode schema) {
        if (!schema.isObject()) {
            return;
        }
        ObjectNode object = (ObjectNode) schema;
        if (object.has("properties")
                && !object.has("additionalProperties")
                && !object.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            object.put("additionalProperties", false);
        }
        object.path("properties").forEach(CrdSchema::closeObjects);
        closeObjects(object.path("items"));
        closeObjects(object.path("additionalProperties"));
        for (String combinator : List.of("anyOf", "allOf", "oneOf")) {
            object.path(combinator).forEach(CrdSchema::closeObjects);
        }
    }

    private static String resource() {
        try (InputStream in = CrdSchema.class.getClassLoader().getResourceAsStream(CRD)) {
            if (in == null) {
                throw new IllegalStateException(CRD + " is not on the test classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
