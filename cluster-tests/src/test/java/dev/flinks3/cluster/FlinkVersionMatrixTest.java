package dev.flinks3.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.core.fs.PluginS3RecoverableWriterSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Flink's {@code FileSystemBehaviorTestSuite} ({@code s3://} and {@code s3a://}) and the recoverable
 * writer suite run through the plugin mechanism on every Flink version the plugin supports (system
 * property {@code flinks3.flink.versions}, set in this module's pom): for each version a child JVM whose
 * class path is that version's jars from Maven Central ({@link FlinkDistribution}) and the suites, with
 * the shaded plugin jar in {@code plugins/flinks3/} and {@code FLINK_PLUGINS_DIR} pointing there,
 * runs the suites with JUnit's console launcher against S3Proxy in this JVM. On Flink 2.x the bulk copy
 * of {@code PathsCopyingFileSystem} is checked too ({@link PluginBulkCopySuite}).
 *
 * <p>Deviations: only the four {@code testRecover*} methods of the recoverable writer suite, documented
 * in {@code AbstractS3RecoverableWriterContractTest}; the behaviour suite runs unmodified.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class FlinkVersionMatrixTest {

    private static final String BUCKET = "flinks3-matrix";
    private static final Pattern SUMMARY = Pattern.compile(
            "<testsuite [^>]*tests=\"(\\d+)\" skipped=\"(\\d+)\" failures=\"(\\d+)\" errors=\"(\\d+)\"");

    private static EmbeddedS3Server server;

    @BeforeAll
    static void startServer() {
        server = EmbeddedS3Server.builder()
                .verifyTrailingChecksums(true)
                .bucket(BUCKET)
                .start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    static Stream<String> versions() {
        return Arrays.stream(System.getProperty("flinks3.flink.versions", "1.20.5,2.0.2,2.1.3,2.2.1,2.3.0")
                        .split(","))
                .map(String::trim)
                .filter(v -> !v.isEmpty());
    }

    @ParameterizedTest(name = "Flink {0}")
    @MethodSource("versions")
    void flinksSuitesPassThroughThePluginMechanism(String version, @TempDir Path work) throws Exception {
        FlinkDistribution flink = FlinkDistribution.fetch(version);
        Path plugins = FlinkDistribution.installPlugin(work, FlinkDistribution.pluginJar());
        Path reports = work.resolve("reports");

        List<Path> classPath = new ArrayList<>(flink.suite());
        classPath.addAll(flink.lib());
        classPath.add(codeSource(PluginS3RecoverableWriterSuite.class.getSuperclass()));
        classPath.add(codeSource(PluginS3RecoverableWriterSuite.class));
        List<String> args = new ArrayList<>(List.of(
                "execute",
                "--disable-banner",
                "--disable-ansi-colors",
                "--details=tree",
                "--fail-if-no-tests",
                "--reports-dir=" + reports,
                "--select-class=" + PluginS3FileSystemBehaviorSuite.class.getName(),
                "--select-class=" + PluginS3aFileSystemBehaviorSuite.class.getName(),
                "--select-class=" + PluginS3RecoverableWriterSuite.class.getName()));
        if (!flink.isFlink1()) {
            args.add("--select-class=" + PluginBulkCopySuite.class.getName());
        }
        JavaProcess suites = JavaProcess.start(
                "suites on Flink " + version,
                classPath,
                List.of("-Xmx512m"),
                "org.junit.platform.console.ConsoleLauncher",
                args,
                Map.of(
                        "FLINK_PLUGINS_DIR", plugins.toString(),
                        "IT_S3_ENDPOINT", server.endpoint().toString(),
                        "IT_S3_ACCESS_KEY", server.accessKey(),
                        "IT_S3_SECRET_KEY", server.secretKey(),
                        "IT_S3_BUCKET", BUCKET,
                        "IT_S3_PREFIX", "matrix-" + version + "-" + UUID.randomUUID()),
                work.resolve("suites.log"));
        int exit = suites.waitFor(Duration.ofMinutes(5));
        String output = suites.log();
        System.out.println("---- Flink " + version + " ----\n" + output);

        assertThat(exit)
                .as("JUnit's exit code on Flink %s; output:%n%s", version, output)
                .isZero();
        String report = Files.readString(reports.resolve("TEST-junit-jupiter.xml"));
        Matcher summary = SUMMARY.matcher(report);
        assertThat(summary.find()).as("test summary in the XML report").isTrue();
        int tests = Integer.parseInt(summary.group(1));
        int skipped = Integer.parseInt(summary.group(2));
        System.out.printf(
                "Flink %s: %d tests, %d skipped, %s failed%n",
                version, tests, skipped, Integer.parseInt(summary.group(3)) + Integer.parseInt(summary.group(4)));
        // Two behaviour suites of about 20 tests each and the 11 recoverable-writer tests at least.
        assertThat(tests - skipped).as("tests that ran on Flink %s", version).isGreaterThanOrEqualTo(45);
        assertThat(output).doesNotContain("NoClassDefFoundError");
    }

    private static Path codeSource(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
