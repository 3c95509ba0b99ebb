package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.transfer.ClientSettings.HttpClientType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the CRT's native library does not load, the default 's3.http-client: crt' falls back to Netty
 * with one warning. A child JVM makes the load fail as a C library mismatch does: {@code
 * -Daws.crt.libc=musl} makes the CRT load its musl build, which this glibc machine cannot link
 * ({@code UnsatisfiedLinkError}, as with an older glibc or a noexec temp directory).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CrtFallbackTest {

    private static final String BUCKET = "crt-fallback";

    @TempDir
    Path dir;

    @Test
    void theFilesystemWorksOverNettyAndWarnsOnceNamingTheCauseAndTheLibraryDirectory() throws Exception {
        try (EmbeddedS3Server server = EmbeddedS3Server.builder().bucket(BUCKET).start()) {
            Map<String, String> config = ServerConfigs.forServer(server, HttpClientType.CRT);
            config.remove("s3.http-client");

            ChildJvmWriter.Result child =
                    ChildJvmWriter.run(dir, List.of("-Daws.crt.libc=musl"), Map.of(), 2, BUCKET, config);

            assertThat(child.exitValue).as(child.output).isZero();
            assertThat(child.output.lines().filter(l -> l.contains("written and read back, over Netty: true")))
                    .as(child.output)
                    .hasSize(2);
            List<String> warnings = child.output
                    .lines()
                    .filter(l -> l.contains("WARN") && l.contains("CRT native library"))
                    .toList();
            assertThat(warnings).as(child.output).hasSize(1);
            assertThat(warnings.get(0))
                    .contains("aws.crt.lib.dir")
                    .contains("libc.musl")
                    .contains("Netty");
        }
    }

    @Test
    void withTheLibraryLoadedTheDefaultIsTheCrtClient() throws Exception {
        try (EmbeddedS3Server server = EmbeddedS3Server.builder().bucket(BUCKET).start()) {
            Map<String, String> config = ServerConfigs.forServer(server, HttpClientType.CRT);
            config.remove("s3.http-client");

            ChildJvmWriter.Result child = ChildJvmWriter.run(dir, List.of(), Map.of(), 1, BUCKET, config);

            assertThat(child.exitValue).as(child.output).isZero();
            assertThat(child.output)
                    .contains("written and read back, over Netty: false")
                    .doesNotContain("CRT native library");
        }
    }
}
