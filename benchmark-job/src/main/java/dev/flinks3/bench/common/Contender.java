package dev.flinks3.bench.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /**
     * Finds a contender's jar: an explicit {@code --plugin name=jar} first; for {@code ours} the
     * shaded jar ({@code *-plugin.jar}) in {@code flink-s3-fs-native/target/}; for Flink's plugins
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
            return existing(
                    name,
                    ourJar(repoRoot.resolve("flink-s3-fs-native/target"))
                            .orElseThrow(
                                    () -> new IllegalArgumentException(
                                            "no plugin jar in " + repoRoot.resolve("flink-s3-fs-native/target")
                                                    + ": build it with mvn -o -q install -pl flink-s3-fs-native -am -DskipTests")));
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

    private static Optional<Path> ourJar(Path target) throws IOException {
        if (!Files.isDirectory(target)) {
            return Optional.empty();
        }
        // The shaded jar carries the classifier "plugin"; the main artifact lacks the SDK and is no plugin.
        List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> files =
                Files.newDirectoryStream(target, "flinks3-flink-s3-fs-native-*-plugin.jar")) {
            files.forEach(jars::add);
        }
        return jars.stream().findFirst();
    }

    private static Contender existing(String name, Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("plugin jar of '" + name + "' not found: " + jar);
        }
        return new Contender(name, jar.toAbsolutePath().normalize());
    }
}
