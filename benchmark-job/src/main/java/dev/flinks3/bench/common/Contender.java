package dev.flinks3.bench.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A plugin under test: its name in reports ({@code ours}, {@code native}, {@code presto},
 * {@code hadoop}) and its jar.
 *
 * @param name the name in reports
 * @param jar the plugin jar
 */
public record Contender(String name, Path jar) {

    /** The baseline's name: this repository's plugin. */
    public static final String OURS = "ours";

    /** The version of Flink's own S3 plugins compared against. */
    public static final String FLINK_VERSION = "2.3.0";

    private static final List<String> RIVALS = List.of("native", "presto", "hadoop");

    /** Where the build puts our plugin jar, from the repository's root, and its folder under plugins/. */
    private static final Properties PLUGIN = pluginProperties();

    /**
     * Finds a contender's jar: an explicit {@code --plugin name=jar} first; for {@code ours} the
     * plugin jar the build made ({@link #ourJar(Path)}); for Flink's plugins
     * {@code flink-s3-fs-<name>-2.3.0.jar} under {@code benchmark-job/target/plugins-rivals/} (where the
     * build copies them) or else in the local Maven repository.
     *
     * @param repoRoot the repository's root directory
     * @throws IllegalArgumentException for an unknown name or a jar that is not there
     */
    public static Contender resolve(String name, Map<String, Path> explicitJars, Path repoRoot) throws IOException {
        Path explicit = explicitJars.get(name);
        if (explicit != null) {
            return existing(name, explicit);
        }
        if (name.equals(OURS)) {
            Path jar = ourJar(repoRoot);
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException(
                        "no plugin jar " + jar + ": build it with mvn -o -q install -pl plugin -am -DskipTests");
            }
            return existing(name, jar);
        }
        if (!RIVALS.contains(name)) {
            throw new IllegalArgumentException("unknown contender '" + name + "': expected " + OURS + ", "
                    + String.join(", ", RIVALS) + " or --plugin " + name + "=<jar>");
        }
        String jarName = "flink-s3-fs-" + name + "-" + FLINK_VERSION + ".jar";
        Path copied = repoRoot.resolve("benchmark-job/target/plugins-rivals");
        if (Files.isDirectory(copied)) {
            try (Stream<Path> walk = Files.walk(copied)) {
                Optional<Path> found = walk.filter(
                                p -> p.getFileName().toString().equals(jarName))
                        .findFirst();
                if (found.isPresent()) {
                    return existing(name, found.get());
                }
            }
        }
        Path local = Path.of(
                System.getProperty("user.home"),
                ".m2",
                "repository",
                "org",
                "apache",
                "flink",
                "flink-s3-fs-" + name,
                FLINK_VERSION,
                jarName);
        return existing(name, local);
    }

    /**
     * The jar as the report names it: file name, size, modification time and the start of its
     * SHA-256, so a figure can be tied to the exact build of a plugin that is still changing.
     */
    public String describe() throws IOException {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
        try (InputStream in = new DigestInputStream(Files.newInputStream(jar), sha256)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        String digest = HexFormat.of().formatHex(sha256.digest()).substring(0, 12);
        return jar.getFileName() + " (" + Files.size(jar) + " bytes, " + Files.getLastModifiedTime(jar) + ", sha256 "
                + digest + ")";
    }

    /**
     * The plugins root folder for this contender, {@code <runDir>/plugins/<name>/}, holding one plugin
     * subfolder with a copy of this jar (a copy, not a link: the build may rewrite the jar mid-run).
     */
    public Path pluginsRoot(Path runDir) throws IOException {
        Path root = runDir.resolve("plugins").resolve(name);
        Path pluginDir = Files.createDirectories(root.resolve("s3-fs-" + name));
        try (DirectoryStream<Path> old = Files.newDirectoryStream(pluginDir)) {
            for (Path file : old) {
                Files.delete(file);
            }
        }
        Files.copy(jar, pluginDir.resolve(jar.getFileName()));
        return root;
    }

    /**
     * Our plugin jar as the build names it ({@code plugin/target/<name>-s3-fs-<version>.jar}), under {@code
     * repoRoot}; it may not be built yet.
     */
    public static Path ourJar(Path repoRoot) {
        return repoRoot.resolve(PLUGIN.getProperty("jar")).toAbsolutePath().normalize();
    }

    /** The folder under Flink's {@code plugins/} the README tells users to put our jar in. */
    public static String ourPluginFolder() {
        return PLUGIN.getProperty("folder");
    }

    private static Properties pluginProperties() {
        Properties properties = new Properties();
        try (InputStream in = Contender.class.getResourceAsStream("plugin.properties")) {
            if (in == null) {
                throw new IllegalStateException("plugin.properties is missing from the benchmark job's jar");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    private static Contender existing(String name, Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("plugin jar of '" + name + "' not found: " + jar);
        }
        return new Contender(name, jar.toAbsolutePath().normalize());
    }
}
