package dev.flinks3.fs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** The repository's root folder, for tests that read its files: found from the module's folder or above it. */
final class RepositoryRoot {

    private RepositoryRoot() {}

    /** @throws IllegalStateException if no folder above the working directory holds the root pom and the modules */
    static Path find() {
        Path here = Paths.get("").toAbsolutePath();
        for (Path dir = here; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("pom.xml"))
                    && Files.isDirectory(dir.resolve("transfer"))
                    && Files.isDirectory(dir.resolve("flink-s3-fs-native"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no repository root above " + here);
    }
}
