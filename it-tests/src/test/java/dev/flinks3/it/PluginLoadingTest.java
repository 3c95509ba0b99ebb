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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded plugin jar loads through Flink's plugin mechanism, serves {@code s3://} and
 * {@code s3a://}, and injects entropy into checkpoint paths through Flink's plugin wrapper: the jar is copied to {@code plugins/s3-fs-native/}, and a separate JVM whose class
 * path has Flink but none of our modules or the AWS SDK runs {@link PluginProcessMain} with
 * {@code FLINK_PLUGINS_DIR} pointing there, exactly as Flink's launch scripts do.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PluginLoadingTest {

    private static final String JAR_DIR_PROPERTY = "flinks3.plugin.jar.dir";
    private static final String SERVICE_FILE = "META-INF/services/org.apache.flink.core.fs.FileSystemFactory";

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
        Path pluginDir = Files.createDirectories(work.resolve("plugins").resolve("s3-fs-native"));
        Files.copy(pluginJar, pluginDir.resolve(pluginJar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        EmbeddedS3Server server = SharedS3Proxy.server();

        ProcessBuilder child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
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
    }

    /**
     * The jar in flink-s3-fs-native/target that registers a FileSystemFactory; the largest if
     * several do (the shaded one carries the AWS SDK). Fails rather than skips when it is missing:
     * the reactor builds that module before this one.
     */
    private static Path pluginJar() throws IOException {
        Path dir = Path.of(System.getProperty(JAR_DIR_PROPERTY, "../flink-s3-fs-native/target"));
        Optional<Path> jar = Optional.empty();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
                jar = files.filter(p -> p.getFileName().toString().endsWith(".jar"))
                        .filter(p -> !p.getFileName().toString().startsWith("original-"))
                        .filter(PluginLoadingTest::registersFileSystemFactory)
                        .max(Comparator.comparingLong(p -> p.toFile().length()));
            }
        }
        return jar.orElseGet(() -> fail(
                "The plugin jar is not built: no jar registering %s in %s. Build it with "
                        + "'mvn -o -q -B install -pl flink-s3-fs-native -DskipTests' (the reactor does so before it-tests).",
                SERVICE_FILE, dir.toAbsolutePath().normalize()));
    }

    private static boolean registersFileSystemFactory(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.getEntry(SERVICE_FILE) != null;
        } catch (IOException e) {
            return false;
        }
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
