package dev.flinks3.bench.common;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.util.WrappingProxy;

/**
 * The filesystem plugin a contender ran with, as loaded: what {@link Contender} names before it runs,
 * with the version and filesystem class found once Flink loaded it.
 *
 * @param name the contender's name in reports, e.g. {@code ours} or {@code flink-presto}
 * @param jar the plugin jar's file name
 * @param version the jar's Implementation-Version or Maven version, empty if unknown
 * @param fileSystemClass the class Flink resolved for {@code s3://}, empty if not resolved
 */
public record PluginInfo(String name, String jar, String version, String fileSystemClass) {

    /**
     * @param name the contender's name
     * @param jar the plugin jar
     * @param checkpointDirectory an {@code s3://} URI the plugin serves
     * @throws IOException if the jar cannot be read or no filesystem serves the URI's scheme
     */
    public static PluginInfo loaded(String name, Path jar, URI checkpointDirectory) throws IOException {
        return new PluginInfo(
                name, jar.getFileName().toString(), version(jar), fileSystemClass(FileSystem.get(checkpointDirectory)));
    }

    /**
     * A plugin that did not load (or whose JVM gave no word): its name and jar only.
     *
     * @param name the contender's name
     * @param jar the plugin jar
     */
    public static PluginInfo notLoaded(String name, Path jar) {
        return new PluginInfo(name, jar.getFileName().toString(), "", "");
    }

    /** The plugin's own filesystem class, behind Flink's class-loader-fixing wrappers. */
    public static String fileSystemClass(FileSystem fs) {
        FileSystem inner = fs;
        while (inner instanceof WrappingProxy<?> proxy
                && proxy.getWrappedDelegate() instanceof FileSystem wrapped
                && wrapped != inner) {
            inner = wrapped;
        }
        return inner.getClass().getName();
    }

    /** The jar's Implementation-Version, else the version of its first Maven pom.properties, else empty. */
    public static String version(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String version =
                    manifest == null ? null : manifest.getMainAttributes().getValue("Implementation-Version");
            if (version != null) {
                return version;
            }
            Enumeration<JarEntry> entries = file.entries();
            while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                if (entry.getName().startsWith("META-INF/maven/")
                        && entry.getName().endsWith("/pom.properties")) {
                    Properties pom = new Properties();
                    pom.load(file.getInputStream(entry));
                    return pom.getProperty("version", "");
                }
            }
            return "";
        }
    }
}
