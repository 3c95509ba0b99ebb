package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** A kustomize object selector by {@code kind} and, optionally, {@code name}. */
final class Selector {

    private static final Set<String> SUPPORTED_FIELDS = Set.of("kind", "name");

    private final String kind;
    private final String name;

    private Selector(String kind, String name) {
        this.kind = kind;
        this.name = name;
    }

    static Selector of(JsonNode selector) {
        for (Iterator<String> fields = selector.fieldNames(); fields.hasNext(); ) {
            String field = fields.next();
            if (!SUPPORTED_FIELDS.contains(field)) {
                throw new UnsupportedOperationException("the test renderer does not select by " + field);
            }
        }
        if (!selector.hasNonNull("kind")) {
            throw new IllegalArgumentException("selector without kind: " + selector);
        }
        return new Selector(selector.get("kind").asText(), selector.path("name").asText(null));
    }

    boolean matches(ObjectNode object) {
        return kind.equals(object.path("kind").asText())
                && (name == null || name.equals(object.path("metadata").path("name").asText()));
    }

    List<ObjectNode> matching(List<ObjectNode> objects) {
        return objects.stream().filter(this::matches).collect(Collectors.toList());
    }

    @Override
    public String toString() {
        return name == null ? kind : kind + "/" + name;
    }
}
