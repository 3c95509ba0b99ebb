package dev.flinks3.cluster;

import java.util.Map;
import java.util.ServiceLoader;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.plugin.PluginUtils;

/**
 * Child-JVM side of {@link FlinkVersionMatrixTest}: Flink's filesystems initialized the way a Flink
 * process initializes them, with the plugins found in {@code FLINK_PLUGINS_DIR}, and pointed at the
 * test's S3 server. The JVM's class path holds one Flink version's jars and the suites, none of our
 * modules: {@code s3://} and {@code s3a://} can only come from the plugin jar.
 *
 * <p>Environment: {@code FLINK_PLUGINS_DIR}, {@code IT_S3_ENDPOINT}, {@code IT_S3_ACCESS_KEY},
 * {@code IT_S3_SECRET_KEY}, {@code IT_S3_BUCKET}, {@code IT_S3_PREFIX} (a key prefix of this run).
 */
public final class PluginFileSystems {

    private PluginFileSystems() {}

    /**
     * Initializes Flink's filesystems with the plugin manager over {@code FLINK_PLUGINS_DIR}.
     *
     * @throws IllegalStateException if the application class path itself serves an {@code s3} scheme
     */
    public static synchronized void initialize() {
        for (FileSystemFactory factory : ServiceLoader.load(FileSystemFactory.class)) {
            if (factory.getScheme().startsWith("s3")) {
                throw new IllegalStateException("The application class path already provides " + factory.getClass()
                        + " for " + factory.getScheme() + "://; the plugin would not be what is tested");
            }
        }
        Configuration configuration = configuration();
        FileSystem.initialize(configuration, PluginUtils.createPluginManagerFromRootFolder(configuration));
    }

    /** The {@code s3.*} keys a user's Flink configuration sets for the test server. */
    public static Configuration configuration() {
        return Configuration.fromMap(Map.of(
                "s3.endpoint", env("IT_S3_ENDPOINT"),
                "s3.access-key", env("IT_S3_ACCESS_KEY"),
                "s3.secret-key", env("IT_S3_SECRET_KEY"),
                "s3.region", "us-east-1",
                "s3.path-style-access", "true"));
    }

    /** The test bucket. */
    public static String bucket() {
        return env("IT_S3_BUCKET");
    }

    /** This run's key prefix; every suite writes below it. */
    public static String prefix() {
        return env("IT_S3_PREFIX");
    }

    private static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException("environment variable " + name + " is not set");
        }
        return value;
    }
}
