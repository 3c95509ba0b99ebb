package dev.flinks3.it.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.flinks3.it.SharedS3Proxy;
import dev.flinks3.testserver.EmbeddedS3Server;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.PluginDescriptor;
import org.apache.flink.core.plugin.PluginManager;

/**
 * One of Flink 2.3.0's own S3 plugins, from its real jar (the build copies the jars to {@code
 * target/rival-plugins}), loaded through Flink's plugin mechanism: a plugin class loader of its own, as in
 * {@code plugins/<name>/}. Our plugin sits on the test class path at a higher priority, so while a rival is to
 * serve a scheme it is preferred the way the migration page documents ({@code fs.<scheme>.priority.<factory
 * class>}); without that, both installed, ours serves.
 */
enum RivalPlugin {
    HADOOP(
            "hadoop",
            Map.of(
                    "s3", "org.apache.flink.fs.s3hadoop.S3FileSystemFactory",
                    "s3a", "org.apache.flink.fs.s3hadoop.S3AFileSystemFactory")),
    PRESTO(
            "presto",
            Map.of(
                    "s3", "org.apache.flink.fs.s3presto.S3FileSystemFactory",
                    "s3p", "org.apache.flink.fs.s3presto.S3PFileSystemFactory")),
    NATIVE(
            "native",
            Map.of(
                    "s3", "org.apache.flink.fs.s3native.NativeS3FileSystemFactory",
                    "s3a", "org.apache.flink.fs.s3native.NativeS3AFileSystemFactory"));

    private final String name;
    private final Map<String, String> factories;

    RivalPlugin(String name, Map<String, String> factories) {
        this.name = name;
        this.factories = factories;
    }

    /** {@code flink-s3-fs-<name>}. */
    String artifact() {
        return "flink-s3-fs-" + name;
    }

    /** A plugin manager holding this plugin alone, as a {@code plugins/} folder with its jar would. */
    PluginManager plugins() {
        Path jar = Path.of(System.getProperty("flinks3.rival.plugins.dir", "target/rival-plugins"))
                .resolve(artifact() + "-2.3.0.jar");
        if (!Files.isRegularFile(jar)) {
            fail("%s is missing: the build copies it there (maven-dependency-plugin, generate-test-resources)", jar);
        }
        try {
            return new DefaultPluginManager(
                    List.of(new PluginDescriptor(
                            artifact(), new URL[] {jar.toUri().toURL()}, new String[0])),
                    CoreOptions.getPluginParentFirstLoaderPatterns(new Configuration()));
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The keys that make Flink pick this plugin over ours for every scheme it serves. */
    Map<String, String> preferred() {
        Map<String, String> keys = new HashMap<>();
        factories.forEach((scheme, factory) -> keys.put("fs." + scheme + ".priority." + factory, "100"));
        return keys;
    }

    /** True if this plugin serves {@code scheme}. */
    boolean serves(String scheme) {
        return factories.containsKey(scheme);
    }

    /**
     * Installs the plugins of a Flink process: ours (on the class path) and {@code rival}, if not null, from its
     * own plugin folder; {@code preferRival} gives the other plugin every scheme it serves.
     */
    static void install(RivalPlugin rival, boolean preferRival) {
        EmbeddedS3Server server = SharedS3Proxy.server();
        Map<String, String> config = new HashMap<>();
        // The spellings every one of the four plugins reads.
        config.put("s3.endpoint", server.endpoint().toString());
        config.put("s3.access-key", server.accessKey());
        config.put("s3.secret-key", server.secretKey());
        config.put("s3.region", server.region());
        config.put("s3.endpoint.region", server.region());
        config.put("s3.path.style.access", "true");
        config.put("s3.upload.min.part.size", "5242880");
        if (rival != null && preferRival) {
            config.putAll(rival.preferred());
        }
        FileSystem.initialize(Configuration.fromMap(config), rival == null ? null : rival.plugins());
    }

    /** Asserts which plugin serves {@code directory}'s scheme now: {@code rival}, or ours if null. */
    static void assertServedBy(String directory, RivalPlugin rival) throws IOException {
        String served = FileSystem.get(URI.create(directory)).getClass().getName();
        if (rival == null) {
            assertThat(served).as("the filesystem of %s", directory).startsWith("dev.flinks3.");
        } else {
            assertThat(served).as("the filesystem of %s", directory).doesNotStartWith("dev.flinks3.");
        }
    }

    @Override
    public String toString() {
        return artifact();
    }
}
