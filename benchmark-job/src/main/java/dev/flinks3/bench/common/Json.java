package dev.flinks3.bench.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapping of both benchmarks: records as objects, for results files, task files and the
 * contender protocol's lines.
 */
public final class Json {

    /** Compact, one value per line: protocol lines. */
    public static final JsonMapper COMPACT = JsonMapper.builder().build();

    /** Indented: files people read. */
    public static final JsonMapper PRETTY =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private Json() {}

    /**
     * Reads a JSON file into {@code type}.
     *
     * @throws IOException if the file cannot be read or does not hold a {@code type}, naming the file
     */
    public static <T> T read(Path file, Class<T> type) throws IOException {
        try {
            return COMPACT.readValue(file.toFile(), type);
        } catch (JacksonException e) {
            throw new IOException(
                    "Could not read " + file + " as " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Writes {@code value} indented, creating the file's folder if needed.
     *
     * @throws IOException if the file cannot be written, naming the file
     */
    public static void write(Path file, Object value) throws IOException {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            PRETTY.writeValue(file.toFile(), value);
        } catch (JacksonException e) {
            throw new IOException("Could not write " + file + ": " + e.getOriginalMessage(), e);
        }
    }
}
