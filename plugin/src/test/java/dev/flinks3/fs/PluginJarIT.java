package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.EntropyInjector;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.PathsCopyingFileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.PluginDescriptor;
import org.apache.flink.util.WrappingProxy;
import org.apache.flink.util.WrappingProxyUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checks the shaded plugin jar the build produced: what it contains, and that Flink's plugin mechanism
 * loads it and sends requests through the relocated SDK with both HTTP clients (the CRT one loads its
 * native library from the jar). Runs in the integration-test phase, after the jar is built.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PluginJarIT {

    private static final Path JAR = Paths.get(System.getProperty("plugin.jar", "target/plugin.jar"));

    /** The folder under Flink's plugins/ the README tells users to put the jar in. */
    private static final String FOLDER = System.getProperty("plugin.folder", "flinks3");

    @AfterEach
    void resetFlinksRegistry() {
        FileSystem.initialize(new Configuration(), null);
    }

    @Test
    void everyClassIsOursRelocatedOrTheCrtJniClasses() throws IOException {
        List<String> strays = new ArrayList<>();
        try (ZipFile zip = new ZipFile(JAR.toFile())) {
            zip.stream()
                    .map(ZipEntry::getName)
                    .filter(name -> name.endsWith(".class"))
                    .forEach(name -> {
                        boolean ours = name.startsWith("dev/flinks3/");
                        // aws-crt's native code looks its classes up by name, so they keep their package
                        boolean crtJni = name.startsWith("software/amazon/awssdk/crt/");
                        if (!ours && !crtJni) {
                            strays.add(name);
                        }
                    });
            assertThat(strays).isEmpty();
            assertThat(zip.stream().map(ZipEntry::getName))
                    .noneMatch(name -> name.startsWith("org/apache/flink/"))
                    .noneMatch(name -> name.startsWith("org/slf4j/"))
                    .anyMatch(name -> name.startsWith("dev/flinks3/shaded/software/amazon/awssdk/services/s3/"))
                    .anyMatch(name -> name.startsWith("dev/flinks3/shaded/io/netty/"));
            assertThat(read(zip, "META-INF/services/org.apache.flink.core.fs.FileSystemFactory"))
                    .contains("dev.flinks3.fs.S3FileSystemFactory", "dev.flinks3.fs.S3AFileSystemFactory");
            assertThat(read(zip, "META-INF/services/org.apache.flink.core.security.token.DelegationTokenProvider"))
                    .contains("dev.flinks3.fs.token.S3DelegationTokenProvider");
            assertThat(read(zip, "META-INF/services/org.apache.flink.core.security.token.DelegationTokenReceiver"))
                    .contains("dev.flinks3.fs.token.S3DelegationTokenReceiver");
            assertThat(
                            read(
                                    zip,
                                    "META-INF/services/dev.flinks3.shaded.software.amazon.awssdk.http.async.SdkAsyncHttpService"))
                    .contains("dev.flinks3.shaded.software.amazon.awssdk.http.nio.netty.NettySdkAsyncHttpService");
        }
    }

    /**
     * The SDK loads execution interceptors from resource files of class names, which relocation does not
     * rewrite: each file the SDK jars ship must exist relocated, naming relocated classes that are in the jar.
     */
    @Test
    void everyExecutionInterceptorOfTheSdkIsRelocated() throws IOException {
        String path = "software/amazon/awssdk/services/s3/execution.interceptors";
        List<String> expected = new ArrayList<>();
        for (URL url : java.util.Collections.list(getClass().getClassLoader().getResources(path))) {
            try (InputStream in = url.openStream()) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\R")) {
                    if (!line.isBlank() && !line.startsWith("#")) {
                        expected.add("dev.flinks3.shaded." + line.trim());
                    }
                }
            }
        }
        assertThat(expected).isNotEmpty();
        try (ZipFile zip = new ZipFile(JAR.toFile())) {
            String relocated = read(zip, "dev/flinks3/shaded/" + path);
            for (String className : expected) {
                assertThat(relocated).contains(className);
                assertThat(zip.getEntry(className.replace('.', '/') + ".class"))
                        .as(className)
                        .isNotNull();
            }
        }
    }

    /** The CRT's native library only for Flink's image platforms: Linux x86_64 and aarch64, glibc and musl. */
    @Test
    void theCrtNativeLibraryIsThereForLinuxX8664AndAarch64WithGlibcAndMusl() throws IOException {
        try (ZipFile zip = new ZipFile(JAR.toFile())) {
            assertThat(zip.stream()
                            .map(ZipEntry::getName)
                            .filter(name -> name.matches(".*\\.(so|dylib|dll|jnilib)(\\..*)?")))
                    .containsExactlyInAnyOrder(
                            "linux/x86_64/glibc/libaws-crt-jni.so",
                            "linux/x86_64/musl/libaws-crt-jni.so",
                            "linux/armv8/glibc/libaws-crt-jni.so",
                            "linux/armv8/musl/libaws-crt-jni.so");
        }
    }

    /**
     * META-INF has the Apache-2.0 LICENSE and one NOTICE holding ours and, paragraph by paragraph, the NOTICE
     * of every jar whose classes were bundled (Netty and the CRT ship none, so their texts are named).
     */
    @Test
    void theNoticeHoldsTheNoticeOfEveryBundledJar() throws IOException {
        try (ZipFile zip = new ZipFile(JAR.toFile())) {
            assertThat(read(zip, "META-INF/LICENSE")).contains("Apache License", "Version 2.0, January 2004");
            assertThat(zip.stream().map(ZipEntry::getName))
                    .noneMatch(name -> name.matches("(?i)META-INF/(LICENSE|NOTICE)\\..*|META-INF/DEPENDENCIES"));
            String notice = normalized(read(zip, "META-INF/NOTICE"));
            assertThat(notice).startsWith("flinks3").contains("The Netty Project", "AWS Crt Java");

            int bundledNotices = 0;
            for (String file : List.of("META-INF/NOTICE", "META-INF/NOTICE.txt")) {
                for (URL url :
                        java.util.Collections.list(getClass().getClassLoader().getResources(file))) {
                    if (!bundled(zip, url)) {
                        continue;
                    }
                    bundledNotices++;
                    try (InputStream in = url.openStream()) {
                        for (String paragraph :
                                new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\R\\s*\\R")) {
                            assertThat(notice).as(url.toString()).contains(normalized(paragraph));
                        }
                    }
                }
            }
            assertThat(bundledNotices).as("bundled jars with a NOTICE").isGreaterThan(30);
        }
    }

    /**
     * META-INF/THIRD-PARTY.txt, which the build writes from the bundled dependencies, names every jar on this
     * test's class path whose classes the plugin jar holds (by artifactId and version), and no licence but the
     * reviewed ones.
     */
    @Test
    void theThirdPartyListNamesEveryBundledJar() throws IOException {
        try (ZipFile zip = new ZipFile(JAR.toFile())) {
            String thirdParty = read(zip, "META-INF/THIRD-PARTY.txt");
            List<String> missing = new ArrayList<>();
            int bundledJars = 0;
            for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                Path jar = Paths.get(entry);
                String name = jar.getFileName().toString();
                if (!name.endsWith(".jar") || name.startsWith("flinks3-") || !bundled(zip, jar)) {
                    continue;
                }
                bundledJars++;
                // <repository>/<group path>/<artifactId>/<version>/<artifactId>-<version>.jar
                String version = jar.getParent().getFileName().toString();
                String artifactId = jar.getParent().getParent().getFileName().toString();
                if (!thirdParty.contains(":" + artifactId + ":" + version + " ")) {
                    missing.add(artifactId + ":" + version);
                }
            }
            assertThat(bundledJars).as("bundled jars on the class path").isGreaterThan(40);
            assertThat(missing).as("bundled jars THIRD-PARTY.txt does not name").isEmpty();
            assertThat(thirdParty.lines().filter(line -> line.contains(":") && line.contains("(")))
                    .allSatisfy(line -> assertThat(line).containsAnyOf("(Apache-2.0)", "(MIT-0)"));
        }
    }

    /** Whether the jar holding this resource had its classes bundled (a class of it is in the plugin jar). */
    private static boolean bundled(ZipFile plugin, URL resource) throws IOException {
        String location = resource.toString();
        if (!location.startsWith("jar:file:")) {
            return false;
        }
        return bundled(plugin, Paths.get(URI.create(location.substring("jar:".length(), location.indexOf("!/")))));
    }

    /** Whether the plugin jar holds the classes of this jar (its first class, as is or relocated). */
    private static boolean bundled(ZipFile plugin, Path source) throws IOException {
        try (ZipFile jar = new ZipFile(source.toFile())) {
            return jar.stream()
                    .map(ZipEntry::getName)
                    .filter(name -> name.endsWith(".class")
                            && !name.startsWith("META-INF/")
                            && !name.endsWith("module-info.class"))
                    .findFirst()
                    .map(name -> plugin.getEntry(name) != null || plugin.getEntry("dev/flinks3/shaded/" + name) != null)
                    .orElse(false);
        }
    }

    private static String normalized(String text) {
        return text.replaceAll("\\s+", " ").trim();
    }

    @ParameterizedTest
    @ValueSource(strings = {"netty", "crt"})
    void flinksPluginMechanismLoadsTheJarAndRequestsGoOut(String httpClient) throws IOException {
        Configuration config = Configuration.fromMap(Map.of(
                "s3.endpoint", "http://127.0.0.1:9", // discard port: nothing listens, the connection is refused
                "s3.path-style-access", "true",
                "s3.access-key", "AKIAPLUGINTEST",
                "s3.secret-key", "plugin-test-secret",
                "s3.retry.max-num-retries", "0",
                "s3.entropy.key", "_entropy_",
                "s3.http-client", httpClient));
        PluginDescriptor plugin =
                new PluginDescriptor(FOLDER, new URL[] {JAR.toUri().toURL()}, new String[0]);
        FileSystem.initialize(
                config,
                new DefaultPluginManager(List.of(plugin), CoreOptions.getPluginParentFirstLoaderPatterns(config)));

        FileSystem fs = FileSystem.get(URI.create("s3://bucket/"));

        Object inner = fs instanceof WrappingProxy ? WrappingProxyUtil.stripProxy((WrappingProxy<?>) fs) : fs;
        // On Flink 2.x, which has PathsCopyingFileSystem, the factory creates the subclass that implements it.
        assertThat(inner.getClass().getName()).isEqualTo(PathsCopyingS3FileSystem.class.getName());
        assertThat(inner.getClass().getClassLoader()).isNotSameAs(S3FileSystem.class.getClassLoader());
        assertThatThrownBy(() -> fs.exists(new org.apache.flink.core.fs.Path("s3://bucket/key")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("s3://bucket/key");

        // entropy injection and bulk copy are seen through Flink's plugin wrapper
        org.apache.flink.core.fs.Path withMarker = new org.apache.flink.core.fs.Path("s3://bucket/_entropy_/chk-1");
        assertThat(EntropyInjector.isEntropyInjecting(fs, withMarker)).isTrue();
        assertThat(EntropyInjector.removeEntropyMarkerIfPresent(fs, withMarker))
                .isEqualTo(new org.apache.flink.core.fs.Path("s3://bucket/chk-1"));
        assertThat(fs).isInstanceOf(PathsCopyingFileSystem.class);
        assertThat(fs.canCopyPaths(withMarker, new org.apache.flink.core.fs.Path("/tmp/restore/f")))
                .isTrue();

        // the exactly-once writer comes from the plugin's own classes
        org.apache.flink.core.fs.RecoverableWriter writer = fs.createRecoverableWriter();
        assertThat(writer.getClass().getName()).isEqualTo("dev.flinks3.writer.S3RecoverableWriter");
        assertThat(writer.getClass().getClassLoader()).isSameAs(inner.getClass().getClassLoader());
        assertThat(writer.supportsResume()).isTrue();
    }

    private static String read(ZipFile zip, String name) throws IOException {
        ZipEntry entry = zip.getEntry(name);
        assertThat(entry).as(name).isNotNull();
        try (InputStream in = zip.getInputStream(entry)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
