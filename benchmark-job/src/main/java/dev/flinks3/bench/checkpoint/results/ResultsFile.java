package dev.flinks3.bench.checkpoint.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Reads and writes the JSON files of the benchmark (records as objects, pretty-printed). */
public final class ResultsFile {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ResultsFile() {}

    /**
     * Writes {@code value} as JSON.
     *
     * @throws IOException if the file cannot be written
     */
    public static void write(Path file, Object value) throws IOException {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            JSON.writeValue(file.toFile(), value);
        } catch (JacksonException e) {
            throw new IOException("Could not write " + file, e);
        }
    }

    /**
     * Reads a JSON file into {@code type}.
     *
     * @throws IOException if the file cannot be read or does not hold a {@code type}
     */
    public static <T> T read(Path file, Class<T> type) throws IOException {
        try {
            return JSON.readValue(file.toFile(), type);
        } catch (JacksonException e) {
            throw new IOException("Could not read " + file + " as " + type.getSimpleName(), e);
        }
    }
}
