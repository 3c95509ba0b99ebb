package dev.flinks3.bench.common;

import dev.flinks3.bench.checkpoint.results.PluginInfo;
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

/** Describes the plugin a contender loaded: its jar's version and the filesystem class behind {@code s3://}. */
public final class PluginDescription {

    private PluginDescription() {}

    /**
     * @param name the contender's name
     * @param jar the plugin jar
     * @param checkpointDirectory an {@code s3://} URI the plugin serves
     * @throws IOException if the jar cannot be read or no filesystem serves the URI's scheme
     */
    public static PluginInfo describe(String name, Path jar, URI checkpointDirectory) throws IOException {
        FileSystem fs = FileSystem.get(checkpointDirectory);
        while (fs instanceof WrappingProxy<?> proxy && proxy.getWrappedDelegate() instanceof FileSystem inner) {
            fs = inner;
        }
        return new PluginInfo(name, jar.getFileName().toString(), version(jar), fs.getClass().getName());
    }

    /** The jar's Implementation-Version, else the version of its first Maven pom.properties, else empty. */
    public static String version(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String version = manifest == null ? null : manifest.getMainAttributes().getValue("Implementation-Version");
            if (version != null) {
                return version;
            }
            Enumeration<JarEntry> entries = file.entries();
            while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                if (entry.getName().startsWith("META-INF/maven/") && entry.getName().endsWith("/pom.properties")) {
                    Properties pom = new Properties();
                    pom.load(file.getInputStream(entry));
                    return pom.getProperty("version", "");
                }
            }
            return "";
        }
    }
}
