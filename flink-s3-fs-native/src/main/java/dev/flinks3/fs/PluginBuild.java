package dev.flinks3.fs;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.apache.flink.core.fs.FileSystem;

/**
 * Which build of the plugin runs, and on which Flink: the project version and the commit the build wrote into
 * {@code build.properties} beside this class, and the version of the Flink classes the process loaded. Immutable.
 */
final class PluginBuild {

    /** What a value the build or Flink does not tell reads as. */
    static final String UNKNOWN = "unknown";

    private static final PluginBuild CURRENT = fromProperties(read(PluginBuild.class, "build.properties"));

    private final String version;
    private final String commit;

    PluginBuild(String version, String commit) {
        this.version = version;
        this.commit = commit;
    }

    /** The build this class was compiled in. */
    static PluginBuild current() {
        return CURRENT;
    }

    /**
     * The build of {@code properties} ({@code version}, {@code commit}); a value missing, or left unfilled by a
     * build outside a git checkout ({@code ${...}}), is {@value #UNKNOWN}.
     */
    static PluginBuild fromProperties(Properties properties) {
        return new PluginBuild(value(properties, "version"), value(properties, "commit"));
    }

    /** The project version, e.g. {@code 0.1.0}. */
    String version() {
        return version;
    }

    /** The abbreviated commit id the jar was built from. */
    String commit() {
        return commit;
    }

    /**
     * The version of the Flink whose classes this process runs: from flink-runtime's version file (in every Flink
     * distribution), else from flink-core's manifest; {@value #UNKNOWN} if neither says.
     */
    static String flinkVersion() {
        String runtime = value(read(FileSystem.class, "/.flink-runtime.version.properties"), "project.version");
        if (!runtime.equals(UNKNOWN)) {
            return runtime;
        }
        Package core = FileSystem.class.getPackage();
        String manifest = core == null ? null : core.getImplementationVersion();
        return manifest == null ? UNKNOWN : manifest;
    }

    @Override
    public String toString() {
        return version + " (commit " + commit + ")";
    }

    private static String value(Properties properties, String key) {
        String value = properties.getProperty(key, "").trim();
        return value.isEmpty() || value.startsWith("${") ? UNKNOWN : value;
    }

    /** The properties of a resource of {@code anchor}'s class loader; empty if there is none or it cannot be read. */
    private static Properties read(Class<?> anchor, String resource) {
        Properties properties = new Properties();
        try (InputStream in = anchor.getResourceAsStream(resource)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException | IllegalArgumentException e) {
            // a broken file says no more than a missing one
        }
        return properties;
    }
}
