package dev.flinks3.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keeps the layering of the {@code transfer} module, from the bottom up: the seam package {@code
 * dev.flinks3.transfer} (with {@code read} and {@code bulk} on it) imports no SDK type and nothing
 * from the packages on the AWS SDK; {@code aws} (what both clients on the SDK share: error
 * translation, credentials, proxies, encryption headers, the CRT's native library) imports neither
 * engine; the CRT engine ({@code crt}) builds on {@code aws} and imports nothing from the SDK engine
 * ({@code sdk}); and in {@code sdk} only the owner, which chooses the engine once per configuration,
 * imports the CRT engine. So no circle between these packages can come back. Reads the import lines
 * of the main sources.
 */
@Timeout(30)
class PackageImportsTest {

    private static final Path MAIN = Path.of("src/main/java/dev/flinks3/transfer");
    private static final String SDK = "import dev.flinks3.transfer.sdk.";
    private static final String CRT = "import dev.flinks3.transfer.crt.";
    private static final String AWS = "import dev.flinks3.transfer.aws.";

    @Test
    void theSeamImportsNothingFromThePackagesOnTheSdk() {
        for (String seam : new String[] {"", "read", "bulk"}) {
            assertThat(ImportLines.of(MAIN.resolve(seam), SDK, CRT, AWS))
                    .as(seam)
                    .isEmpty();
        }
    }

    @Test
    void theSeamImportsNoSdkType() {
        assertThat(ImportLines.of(MAIN, "import software.amazon.")).isEmpty();
        assertThat(ImportLines.of(MAIN.resolve("read"), "import software.amazon."))
                .isEmpty();
        assertThat(ImportLines.of(MAIN.resolve("bulk"), "import software.amazon."))
                .isEmpty();
    }

    @Test
    void whatBothClientsShareImportsNeitherEngine() {
        assertThat(ImportLines.of(MAIN.resolve("aws"), SDK, CRT)).isEmpty();
    }

    @Test
    void theCrtEngineImportsNothingFromTheSdkEngine() {
        assertThat(ImportLines.of(MAIN.resolve("crt"), SDK)).isEmpty();
    }

    @Test
    void theSdkEngineImportsTheCrtEngineOnlyWhereTheOwnerChoosesIt() {
        assertThat(ImportLines.of(MAIN.resolve("sdk"), CRT))
                .as("the engine choice, made in S3ClientOwner, and the process's one CRT-based client, which the"
                        + " transport holds")
                .containsOnlyKeys("S3ClientOwner.java", "S3Transport.java");
    }
}
