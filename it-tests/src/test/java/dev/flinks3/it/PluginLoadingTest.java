package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded plugin jar loads through Flink's plugin mechanism, serves {@code s3://} and
 * {@code s3a://}, and injects entropy into checkpoint paths through Flink's plugin wrapper: the jar is copied to {@code plugins/flinks3/} (the folder
 * the build names), and a separate JVM whose class
 * path has Flink but none of our modules or the AWS SDK runs {@link PluginProcessMain} with
 * {@code FLINK_PLUGINS_DIR} pointing there, exactly as Flink's launch scripts do.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PluginLoadingTest {

    /** The plugin jar the build made, and the folder under plugins/ users put it in (both set by the pom). */
    private static final String JAR_PROPERTY = "flinks3.plugin.jar";

    private static final String FOLDER = System.getProperty("flinks3.plugin.folder", "flinks3");

    @Test
    void pluginJarServesS3AndS3aInAFlinkProcess(@TempDir Path work) throws Exception {
        String prefix = "plugin-loading-" + UUID.randomUUID();
        runChild(work, prefix, Map.of());
        assertThat(SharedS3Proxy.server().requestLog().entries(RequestKind.PUT_OBJECT))
                .extracting(r -> r.key())
                .contains(prefix + "/s3", prefix + "/s3a")
                .anySatisfy(key -> assertThat(key).matches(Pattern.quote(prefix) + "/[^/_]{4}/chk-1/data"));
    }

    /** The CRT-based S3 client ({@code s3.client: crt}) loads its native library from the shaded jar. */
    @Test
    void pluginJarServesS3OnTheCrtS3Client(@TempDir Path work) throws Exception {
        String prefix = "plugin-loading-crt-" + UUID.randomUUID();
        runChild(work, prefix, Map.of("IT_S3_CLIENT", "crt"));
        assertThat(SharedS3Proxy.server().requestLog().entries(RequestKind.PUT_OBJECT))
                .filteredOn(r -> r.key().startsWith(prefix + "/"))
                .hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(r -> assertThat(r.header("User-Agent"))
                        .hasValueSatisfying(agent -> assertThat(agent).contains("CRTS3NativeClient")));
    }

    /** Runs {@link PluginProcessMain} in a Flink-like JVM with the plugin jar; fails unless it succeeds. */
    private static void runChild(Path work, String prefix, Map<String, String> extraEnvironment) throws Exception {
        Path pluginJar = pluginJar();
        Path pluginDir = Files.createDirectories(work.resolve("plugins").resolve(FOLDER));
        Files.copy(pluginJar, pluginDir.resolve(pluginJar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        EmbeddedS3Server server = SharedS3Proxy.server();

        ProcessBuilder child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        // INFO, for the one line the first filesystem of a process logs
                        "-Dlog4j2.level=INFO",
                        "-cp",
                        childClassPath(),
                        PluginProcessMain.class.getName())
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("child.log").toFile());
        child.environment()
                .putAll(Map.of(
                        "FLINK_PLUGINS_DIR", pluginDir.getParent().toString(),
                        "IT_S3_ENDPOINT", server.endpoint().toString(),
                        "IT_S3_ACCESS_KEY", server.accessKey(),
                        "IT_S3_SECRET_KEY", server.secretKey(),
                        "IT_S3_BUCKET", SharedS3Proxy.BUCKET,
                        "IT_S3_PREFIX", prefix));
        child.environment().putAll(extraEnvironment);
        Process process = child.start();
        boolean exited = process.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        String output = Files.readString(work.resolve("child.log"), StandardCharsets.UTF_8);
        System.out.print(output);

        assertThat(exited)
                .as("child JVM exited within 120 s; output:%n%s", output)
                .isTrue();
        assertThat(process.exitValue())
                .as("child JVM exit code; output:%n%s", output)
                .isZero();
        assertThat(output).contains(PluginProcessMain.OK);
        // Two filesystems (s3:// and s3a://), one line: the build, Flink, the client, the endpoint, the credentials.
        assertThat(output.lines().filter(line -> line.contains("dev.flinks3.fs.StartupLine")))
                .singleElement()
                .satisfies(line -> assertThat(line)
                        .containsPattern(
                                "flinks3 \\d+\\.\\d+\\.\\d+\\S* \\(commit [0-9a-f]{7,}\\) on Flink 2\\.3\\.0: ")
                        .contains(
                                "s3.client " + extraEnvironment.getOrDefault("IT_S3_CLIENT", "sdk"),
                                "endpoint " + server.endpoint(),
                                "region us-east-1",
                                "credentials static keys (resolved by CREDENTIALS_CODE)")
                        .doesNotContain(server.secretKey()));
    }

    /**
     * The plugin jar the plugin module built. Fails rather than skips when it is missing: the reactor builds
     * that module before this one.
     */
    private static Path pluginJar() {
        Path jar = Path.of(System.getProperty(JAR_PROPERTY, "(system property " + JAR_PROPERTY + " not set)"));
        if (!Files.isRegularFile(jar)) {
            fail(
                    "The plugin jar %s is not built. Build it with 'mvn -o -q -B install -pl plugin -am -DskipTests'"
                            + " (the reactor does so before it-tests).",
                    jar.toAbsolutePath().normalize());
        }
        return jar;
    }

    /**
     * This JVM's class path without the entries holding our own modules' classes ({@code dev/flinks3})
     * or the AWS SDK, except the test classes that hold {@link PluginProcessMain}.
     */
    private static String childClassPath() throws Exception {
        Path ownTestClasses = Path.of(PluginProcessMain.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        List<String> entries = Arrays.stream(
                        System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> Path.of(entry).equals(ownTestClasses) || !holdsPluginClasses(Path.of(entry)))
                .toList();
        return entries.stream().collect(Collectors.joining(File.pathSeparator));
    }

    private static boolean holdsPluginClasses(Path entry) {
        if (Files.isDirectory(entry)) {
            return Files.isDirectory(entry.resolve("dev/flinks3"));
        }
        try (JarFile jar = new JarFile(entry.toFile())) {
            return jar.stream()
                    .anyMatch(e -> e.getName().startsWith("dev/flinks3/")
                            || e.getName().startsWith("software/amazon/awssdk/"));
        } catch (IOException e) {
            return false;
        }
    }
}
