package dev.flinks3.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * One Flink version installed from Maven Central: Flink's distribution archive is not served there, so
 * the module jars its {@code lib/} holds (flink-core, flink-runtime, flink-clients, flink-streaming-java,
 * the RPC system, the RocksDB state backend, log4j) are fetched by Maven with their
 * dependencies into {@code lib/}, and Flink's contract test suites with the JUnit console launcher into
 * {@code suite/}. The fetch runs {@code mvn package} on {@code src/test/flink-distribution/pom.xml} with
 * {@code -Dflink.version}; where it fails (offline, a version not published) the calling test fails in CI
 * (environment variable {@code CI=true}, or system property {@code flinks3.flink.required=true}) and is
 * skipped elsewhere, with Maven's output as the reason either way ({@link #unavailable}). Single jars a distribution keeps in {@code opt/} (the file connector
 * a job jar carries, the Prometheus reporter) are fetched on demand into {@code opt/} ({@link
 * #optionalJar}).
 *
 * <p>System properties (set by this module's pom): {@code flinks3.distribution.pom}, {@code
 * flinks3.distributions.dir} (where installations go, one folder per version), {@code flinks3.maven.home}
 * and {@code flinks3.maven.repo} (the Maven running the build and its local repository).
 */
final class FlinkDistribution {

    private static final Duration FETCH_TIMEOUT = Duration.ofMinutes(5);
    /** The maven-dependency-plugin the distribution pom uses too. */
    private static final String DEPENDENCY_PLUGIN_VERSION = "3.8.1";

    private final String version;
    private final Path home;

    private FlinkDistribution(String version, Path home) {
        this.version = version;
        this.home = home;
    }

    /**
     * The installation of {@code version}, fetched on first use (later calls and later builds reuse it).
     *
     * @throws org.opentest4j.TestAbortedException if Maven cannot fetch the version's jars, outside CI
     * @throws AssertionError if Maven cannot fetch them in CI
     */
    static synchronized FlinkDistribution fetch(String version) throws IOException, InterruptedException {
        Path home = Path.of(System.getProperty("flinks3.distributions.dir", "target/flink"))
                .resolve(version)
                .toAbsolutePath();
        // The marker holds the pom it was fetched with: a changed pom fetches again.
        Path pom = Path.of(System.getProperty("flinks3.distribution.pom", "src/test/flink-distribution/pom.xml"));
        String fetchedWith = version + "\n" + Files.readString(pom, StandardCharsets.UTF_8);
        Path fetched = home.resolve(".fetched");
        if (!Files.exists(fetched)
                || !Files.readString(fetched, StandardCharsets.UTF_8).equals(fetchedWith)) {
            Files.createDirectories(home);
            for (String dir : new String[] {"lib", "suite"}) {
                deleteRecursively(home.resolve(dir));
            }
            Path log = home.resolve("fetch.log");
            String failure = runMaven(
                    List.of(
                            "-f",
                            pom.toString(),
                            "package",
                            "-Dflink.version=" + version,
                            "-Ddistribution.dir=" + home),
                    null,
                    log);
            if (failure != null) {
                String output = Files.readString(log, StandardCharsets.UTF_8);
                unavailable("Flink " + version + "'s jars could not be fetched from Maven Central (" + failure
                        + "); Maven's output ends:\n"
                        + tail(output, 2_000));
            }
            Files.writeString(fetched, fetchedWith);
        }
        return new FlinkDistribution(version, home);
    }

    /**
     * One more jar of this version from Maven Central ({@code org.apache.flink:<artifactId>:<version>},
     * without its dependencies) in {@code opt/}, as a distribution's {@code opt/} holds its connectors and
     * reporters: fetched on first use by {@code mvn dependency:copy}.
     *
     * @return the jar, or empty if Maven cannot fetch it (the reason is printed)
     */
    synchronized Optional<Path> optionalJar(String artifactId) throws IOException, InterruptedException {
        Path opt = Files.createDirectories(home.resolve("opt"));
        Path jar = opt.resolve(artifactId + "-" + version + ".jar");
        if (Files.isRegularFile(jar)) {
            return Optional.of(jar);
        }
        Path log = opt.resolve(artifactId + ".fetch.log");
        String failure = runMaven(
                List.of(
                        "org.apache.maven.plugins:maven-dependency-plugin:" + DEPENDENCY_PLUGIN_VERSION + ":copy",
                        "-Dartifact=org.apache.flink:" + artifactId + ":" + version,
                        "-DoutputDirectory=" + opt),
                opt,
                log);
        if (failure == null && Files.isRegularFile(jar)) {
            return Optional.of(jar);
        }
        System.out.println("org.apache.flink:" + artifactId + ":" + version + " could not be fetched from Maven Central"
                + " (" + (failure == null ? "no jar written" : failure) + "); Maven's output ends:\n"
                + tail(Files.readString(log, StandardCharsets.UTF_8), 1_500));
        return Optional.empty();
    }

    /**
     * Runs {@code mvn -B -ntp} with {@code arguments} (and the local repository of {@code flinks3.maven.repo}, if
     * set) in {@code directory} ({@code null}: this JVM's), its output into {@code log}, for at most {@link
     * #FETCH_TIMEOUT}.
     *
     * @return {@code null} if Maven ended with exit code 0, else why not
     */
    private static String runMaven(List<String> arguments, Path directory, Path log)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(maven(), "-B", "-ntp"));
        command.addAll(arguments);
        String repo = System.getProperty("flinks3.maven.repo");
        if (repo != null && !repo.isBlank()) {
            command.add("-Dmaven.repo.local=" + repo);
        }
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        Process maven = builder.start();
        if (!maven.waitFor(FETCH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            maven.destroyForcibly().waitFor();
            return "mvn ran longer than " + FETCH_TIMEOUT;
        }
        return maven.exitValue() == 0 ? null : "mvn exit code " + maven.exitValue();
    }

    /**
     * Like {@link #optionalJar}, for a jar the calling test cannot do without.
     *
     * @throws org.opentest4j.TestAbortedException if Maven cannot fetch it, outside CI
     * @throws AssertionError if Maven cannot fetch it in CI
     */
    Path requiredJar(String artifactId) throws IOException, InterruptedException {
        Optional<Path> jar = optionalJar(artifactId);
        if (jar.isEmpty()) {
            unavailable("org.apache.flink:" + artifactId + ":" + version
                    + " could not be fetched from Maven Central (Maven's output above)");
        }
        return jar.orElseThrow();
    }

    /**
     * True where a Flink version or jar that cannot be fetched must fail the build rather than skip: in CI
     * (environment variable {@code CI} is {@code true}, as CI runners set it) or with system property {@code
     * flinks3.flink.required=true}; {@code flinks3.flink.required=false} skips even in CI.
     */
    static boolean fetchRequired() {
        String property = System.getProperty("flinks3.flink.required");
        if (property != null && !property.isBlank()) {
            return Boolean.parseBoolean(property.trim());
        }
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /**
     * Ends the calling test because something it needs could not be fetched: fails it where {@link
     * #fetchRequired()}, skips it elsewhere; the reason is printed either way.
     */
    static void unavailable(String reason) {
        System.out.println(reason);
        if (fetchRequired()) {
            Assertions.fail(reason + "\n(CI=true or -Dflinks3.flink.required=true: what cannot be fetched fails the"
                    + " build; -Dflinks3.flink.required=false skips instead)");
        }
        Assumptions.abort(reason + " (skipped outside CI)");
    }

    /** The Flink version, e.g. {@code 1.20.5}. */
    String version() {
        return version;
    }

    /** True for Flink 1.x. */
    boolean isFlink1() {
        return version.startsWith("1.");
    }

    /** The jars of a distribution's {@code lib/}: Flink's class path. */
    List<Path> lib() throws IOException {
        return jars(home.resolve("lib"));
    }

    /** Flink's {@code flink-core} test jar (the contract suites), the JUnit console launcher, AssertJ. */
    List<Path> suite() throws IOException {
        return jars(home.resolve("suite"));
    }

    /**
     * Copies the plugin jar into {@code <root>/plugins/<folder>/} ({@link #pluginFolder()}), as README's install
     * section says.
     *
     * @return the plugins folder, for {@code FLINK_PLUGINS_DIR}
     */
    static Path installPlugin(Path root, Path pluginJar) throws IOException {
        if (!Files.isRegularFile(pluginJar)) {
            throw new IllegalStateException("The plugin jar " + pluginJar + " is not built: build the plugin module "
                    + "first ('mvn -B -ntp install -pl plugin -am -DskipTests')");
        }
        Path plugins = root.resolve("plugins");
        Path dir = Files.createDirectories(plugins.resolve(pluginFolder()));
        Files.copy(pluginJar, dir.resolve(pluginJar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        return plugins;
    }

    /** The shaded plugin jar this build made (system property {@code flinks3.plugin.jar}, set by the pom). */
    static Path pluginJar() {
        String jar = System.getProperty("flinks3.plugin.jar");
        if (jar == null) {
            throw new IllegalStateException("system property flinks3.plugin.jar is not set (run the tests with Maven)");
        }
        return Path.of(jar).toAbsolutePath().normalize();
    }

    /** The folder under Flink's {@code plugins/} the jar goes in (system property {@code flinks3.plugin.folder}). */
    static String pluginFolder() {
        return System.getProperty("flinks3.plugin.folder", "flinks3");
    }

    private static List<Path> jars(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar"))
                    .sorted()
                    .toList();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static String maven() {
        String mavenHome = System.getProperty("flinks3.maven.home");
        if (mavenHome != null && Files.isExecutable(Path.of(mavenHome, "bin", "mvn"))) {
            return Path.of(mavenHome, "bin", "mvn").toString();
        }
        return "mvn";
    }

    private static String tail(String text, int chars) {
        return text.length() <= chars ? text : text.substring(text.length() - chars);
    }

    @Override
    public String toString() {
        return "Flink " + version + " at " + home;
    }
}
