package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads YAML (one or several documents per file) and JSON into Jackson trees. */
final class Yaml {

    private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory());

    private static final ObjectMapper JSON = new ObjectMapper();

    private Yaml() {}

    /** Every non-empty document of a YAML file, each a mapping. */
    static List<ObjectNode> documents(Path file) {
        return documents(ModuleFiles.read(file), file.toString());
    }

    /** Every non-empty document of YAML text, each a mapping. */
    static List<ObjectNode> documents(String text, String origin) {
        List<ObjectNode> documents = new ArrayList<>();
        try (var values = MAPPER.readerFor(JsonNode.class).<JsonNode>readValues(text)) {
            while (values.hasNext()) {
                JsonNode document = values.next();
                if (document == null || document.isNull() || document.isMissingNode()) {
                    continue;
                }
                if (!document.isObject()) {
                    throw new IllegalArgumentException(origin + ": a document is not a mapping: " + document);
                }
                documents.add((ObjectNode) document);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(origin + " is not valid YAML", e);
        }
        return documents;
    }

    /** The single document of a YAML file. */
    static ObjectNode document(Path file) {
        List<ObjectNode> documents = documents(file);
        if (documents.size() != 1) {
            throw new IllegalArgumentException(file + " has " + documents.size() + " documents, expected one");
        }
        return documents.get(0);
    }

    /** A JSON file as a tree. */
    static JsonNode json(String text, String origin) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(origin + " is not valid JSON", e);
        }
    }

    /** JSON text as a tree, or a missing node if it is not JSON. */
    static JsonNode jsonOrMissing(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            return MissingNode.getInstance();
        }
    }
}
