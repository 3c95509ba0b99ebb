package dev.flinks3.transfer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The import lines of main sources, for the tests that keep the packages of a module layered. */
public final class ImportLines {

    private ImportLines() {}

    /**
     * The files of {@code dir} (not its subdirectories) with import lines starting with one of {@code prefixes},
     * each with those lines.
     */
    public static Map<String, String> of(Path dir, String... prefixes) {
        try (Stream<Path> files = Files.list(dir)) {
            Map<String, String> found = new TreeMap<>();
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).collect(Collectors.toList())) {
                String imports = Files.readAllLines(file).stream()
                        .filter(line -> Stream.of(prefixes).anyMatch(line::startsWith))
                        .collect(Collectors.joining("\n"));
                if (!imports.isEmpty()) {
                    found.put(file.getFileName().toString(), imports);
                }
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
