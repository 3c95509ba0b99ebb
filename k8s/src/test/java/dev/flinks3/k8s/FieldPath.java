package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A field path as kustomize's replacements write it: dot-separated keys, a key holding dots in
 * brackets ({@code spec.flinkConfiguration.[s3.region]}), and a list element chosen by one of its
 * fields ({@code containers.[name=flink-main-container]}).
 */
final class FieldPath {

    private final String text;
    private final List<String> segments;

    private FieldPath(String text, List<String> segments) {
        this.text = text;
        this.segments = segments;
    }

    static FieldPath parse(String text) {
        List<String> segments = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            if (text.charAt(i) == '[') {
                int close = text.indexOf(']', i);
                if (close < 0) {
                    throw new IllegalArgumentException("unclosed [ in field path " + text);
                }
                segments.add(text.substring(i, close + 1));
                i = close + 1;
            } else {
                int dot = text.indexOf('.', i);
                int end = dot < 0 ? text.length() : dot;
                segments.add(text.substring(i, end));
                i = end;
            }
            if (i < text.length()) {
                if (text.charAt(i) != '.') {
                    throw new IllegalArgumentException("expected . at " + i + " in field path " + text);
                }
                i++;
            }
        }
        return new FieldPath(text, List.copyOf(segments));
    }

    /** The node at this path, or {@code null} if some field on the way is missing. */
    JsonNode get(JsonNode root) {
        JsonNode node = root;
        for (String segment : segments) {
            node = child(node, segment);
            if (node == null) {
                return null;
            }
        }
        return node;
    }

    /**
     * Puts {@code value} at this path.
     *
     * @param create whether missing mappings on the way (and the last field) may be created; list
     *     elements are never created
     * @throws IllegalArgumentException if the path does not exist and may not be created
     */
    void set(JsonNode root, JsonNode value, boolean create) {
        JsonNode node = root;
        for (int i = 0; i < segments.size() - 1; i++) {
            String segment = segments.get(i);
            JsonNode next = child(node, segment);
            if (next == null) {
                if (!create || isSelector(segment) || !node.isObject()) {
                    throw new IllegalArgumentException("field path " + text + " does not exist at " + segment);
                }
                next = ((ObjectNode) node).putObject(key(segment));
            }
            node = next;
        }
        String last = segments.get(segments.size() - 1);
        if (isSelector(last) || !node.isObject()) {
            throw new IllegalArgumentException("field path " + text + " does not end in a mapping key");
        }
        if (!create && !node.has(key(last))) {
            throw new IllegalArgumentException("field path " + text + " does not exist");
        }
        ((ObjectNode) node).set(key(last), value);
    }

    @Override
    public String toString() {
        return text;
    }

    private static JsonNode child(JsonNode node, String segment) {
        if (isSelector(segment)) {
            if (!(node instanceof ArrayNode)) {
                return null;
            }
            String selector = segment.substring(1, segment.length() - 1);
            int equals = selector.indexOf('=');
            String field = selector.substring(0, equals);
            String wanted = selector.substring(equals + 1);
            for (JsonNode element : node) {
                if (wanted.equals(element.path(field).asText(null))) {
                    return element;
                }
            }
            return null;
        }
        return node.isObject() ? node.get(key(segment)) : null;
    }

    private static boolean isSelector(String segment) {
        return segment.startsWith("[") && segment.contains("=");
    }

    private static String key(String segment) {
        return segment.startsWith("[") ? segment.substring(1, segment.length() - 1) : segment;
    }
}
