package dev.flinks3.bench.checkpoint.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A test build of the plugin jar: every entry of the shipped jar, and the classes of {@code
 * dev.flinks3.bench.soak.leak} with its {@code s3://} factory listed in place of the plugin's own, which it wraps
 * ({@code LeakingFileSystemFactory}): the plugin as shipped, plus a leak that the JVM's system property {@code
 * flinks3.test.leak} switches on.
 */
final class LeakingPluginJar {

    /** The plugin's factory of {@code s3://} in its service list. */
    static final String S3_FACTORY = "dev.flinks3.fs.S3FileSystemFactory";

    private static final String SERVICES = "META-INF/services/org.apache.flink.core.fs.FileSystemFactory";
    private static final String LEAK_PACKAGE = "dev/flinks3/bench/soak/leak/";
    private static final String WRAPPER = "dev.flinks3.bench.soak.leak.LeakingFileSystemFactory";
    private static final String DELEGATE = "META-INF/flinks3-test-leak-delegate";

    private LeakingPluginJar() {}

    /** Writes the test build of {@code pluginJar} to {@code jar}. */
    static Path build(Path pluginJar, Path jar) throws IOException, URISyntaxException {
        Files.createDirectories(jar.getParent());
        Path classes = Path.of(LeakingPluginJar.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        try (JarFile shipped = new JarFile(pluginJar.toFile());
                JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            List<String> factories = new ArrayList<>();
            for (Enumeration<JarEntry> entries = shipped.entries(); entries.hasMoreElements(); ) {
                JarEntry entry = entries.nextElement();
                try (InputStream in = shipped.getInputStream(entry)) {
                    if (entry.getName().equals(SERVICES)) {
                        new String(in.readAllBytes(), StandardCharsets.UTF_8)
                                .lines()
                                .map(String::trim)
                                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                                .forEach(factories::add);
                        continue;
                    }
                    out.putNextEntry(new JarEntry(entry.getName()));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
            if (!factories.remove(S3_FACTORY)) {
                throw new IllegalStateException(
                        pluginJar + " lists no " + S3_FACTORY + " in " + SERVICES + ": " + factories);
            }
            factories.add(0, WRAPPER);
            write(out, SERVICES, String.join("\n", factories) + "\n");
            write(out, DELEGATE, S3_FACTORY + "\n");
            try (Stream<Path> files = Files.list(classes.resolve(LEAK_PACKAGE))) {
                for (Path file : files.toList()) {
                    out.putNextEntry(new JarEntry(LEAK_PACKAGE + file.getFileName()));
                    Files.copy(file, out);
                    out.closeEntry();
                }
            }
        }
        return jar;
    }

    private static void write(JarOutputStream out, String name, String text) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
    }
}
