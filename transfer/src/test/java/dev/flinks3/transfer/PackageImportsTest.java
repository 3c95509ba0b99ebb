package dev.flinks3.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keeps the layering of the {@code transfer} module: the seam package {@code dev.flinks3.transfer}
 * imports nothing from its engines ({@code transfer.sdk}, {@code transfer.crt}), and the SDK engine
 * imports nothing from the CRT engine (the CRT engine builds on the SDK one, never the other way), so
 * the circles {@code ClientSettings <-> sdk.S3RetryStrategy} and {@code sdk <-> crt} cannot come back.
 * Reads the import lines of the main sources. The seam's SDK imports and the SDK engine's imports of
 * the CRT engine that are still there are listed exactly, so none can be added unnoticed.
 */
@Timeout(30)
class PackageImportsTest {

    private static final Path MAIN = Path.of("src/main/java/dev/flinks3/transfer");

    @Test
    void theSeamImportsNothingFromItsEngines() {
        assertThat(importsOf(MAIN, "import dev.flinks3.transfer.sdk.", "import dev.flinks3.transfer.crt."))
                .isEmpty();
    }

    @Test
    void theSeamImportsNoSdkTypeBeyondTheKnownOnes() {
        assertThat(importsOf(MAIN, "import software.amazon."))
                .as("SDK types the seam still names (to move behind the engines)")
                .containsOnlyKeys("S3Errors.java", "UploadSettings.java");
    }

    @Test
    void theSdkEngineImportsNothingFromTheCrtEngineButTheOwnersChoice() {
        assertThat(importsOf(MAIN.resolve("sdk"), "import dev.flinks3.transfer.crt."))
                .as("the engine choice still made in S3ClientOwner")
                .containsOnlyKeys("S3ClientOwner.java");
    }

    /** The files of {@code dir} (not its subdirectories) with import lines starting with one of {@code prefixes}. */
    private static Map<String, String> importsOf(Path dir, String... prefixes) {
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
