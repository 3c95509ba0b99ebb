package dev.flinks3.bench.common;

import java.nio.file.Path;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The one JSON mapper of the filesystem benchmark: task files, protocol lines and results. */
public final class Json {

    /** Compact, one value per line: protocol lines. */
    public static final JsonMapper COMPACT = JsonMapper.builder().build();

    /** Indented: files people read. */
    public static final JsonMapper PRETTY = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private Json() {}

    public static <T> T read(Path file, Class<T> type) {
        return COMPACT.readValue(file.toFile(), type);
    }

    public static void write(Path file, Object value) {
        PRETTY.writeValue(file.toFile(), value);
    }
}
