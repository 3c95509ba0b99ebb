package dev.flinks3.multipart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.ImportLines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keeps the CRT engine of the {@code multipart} module in one place: only {@code multipart.crt} (the streams
 * of {@code s3.client: crt}, on the Transfer Manager) imports the AWS SDK and the packages of {@code transfer}
 * that stand on it ({@code aws}, {@code sdk}, {@code crt}); the upload engine ({@code dev.flinks3.multipart})
 * talks to S3 only through the seam of {@code transfer}, so it runs against the in-memory fake, and imports
 * nothing of {@code multipart.crt}. Reads the import lines of the main sources.
 */
@Timeout(30)
class PackageImportsTest {

    private static final Path MAIN = Path.of("src/main/java/dev/flinks3/multipart");
    private static final String[] ON_THE_SDK = {
        "import software.amazon.",
        "import dev.flinks3.transfer.aws.",
        "import dev.flinks3.transfer.sdk.",
        "import dev.flinks3.transfer.crt."
    };

    @Test
    void onlyTheCrtEngineImportsTheSdkAndThePackagesOnIt() throws IOException {
        try (Stream<Path> dirs = Files.walk(MAIN)) {
            for (Path dir : dirs.filter(Files::isDirectory).collect(Collectors.toList())) {
                if (dir.endsWith("crt")) {
                    continue;
                }
                assertThat(ImportLines.of(dir, ON_THE_SDK))
                        .as("%s", MAIN.relativize(dir))
                        .isEmpty();
            }
        }
    }

    @Test
    void theUploadEngineImportsNothingOfTheCrtEngine() {
        assertThat(ImportLines.of(MAIN, "import dev.flinks3.multipart.crt.")).isEmpty();
    }
}
