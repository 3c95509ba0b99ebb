package dev.flinks3.it;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.util.ServiceLoader;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;

/**
 * Our filesystem as Flink finds it on the classpath: the {@link FileSystemFactory} registered for a
 * scheme in {@code META-INF/services}. Tests never name the implementation classes.
 */
public final class FlinkS3FileSystems {

    private FlinkS3FileSystems() {}

    /**
     * A new filesystem instance for {@code scheme://bucket/} configured from {@code configuration},
     * independent of Flink's global filesystem registry.
     */
    static FileSystem create(String scheme, String bucket, Configuration configuration) throws IOException {
        return factory(scheme, configuration).create(URI.create(scheme + "://" + bucket + "/"));
    }

    /**
     * A new factory for {@code scheme}, configured from {@code configuration}: its filesystems of several
     * buckets share what the factory shares (S3 clients per effective configuration).
     */
    public static FileSystemFactory factory(String scheme, Configuration configuration) {
        for (FileSystemFactory factory : ServiceLoader.load(FileSystemFactory.class)) {
            if (factory.getScheme().equals(scheme)) {
                factory.configure(configuration);
                return factory;
            }
        }
        return fail(
                "No FileSystemFactory for scheme '%s' on the test classpath: module flink-s3-fs-native must "
                        + "register one in META-INF/services/%s",
                scheme, FileSystemFactory.class.getName());
    }

    /**
     * Closes the S3 clients a factory built: configuring it again (here with an empty configuration)
     * closes them, after waiting up to {@code s3.close.timeout} for parts still uploading.
     */
    public static void closeClients(FileSystemFactory factory) {
        factory.configure(new Configuration());
    }

    /** Closes a filesystem if its implementation owns resources. */
    public static void close(FileSystem fileSystem) throws Exception {
        if (fileSystem instanceof AutoCloseable) {
            ((AutoCloseable) fileSystem).close();
        }
    }
}
