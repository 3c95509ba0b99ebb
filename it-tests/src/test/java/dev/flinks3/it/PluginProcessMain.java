package dev.flinks3.it;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.EntropyInjector;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.OutputStreamAndPath;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.plugin.PluginUtils;

/**
 * The child process of {@link PluginLoadingTest}: loads the S3 filesystem the way a Flink process
 * does, from the folder in {@code FLINK_PLUGINS_DIR}, then writes and reads one file per scheme and
 * writes one checkpoint file with entropy injection.
 * Its class path holds Flink but none of our modules. Exit code 0 and the line {@value #OK} mean
 * success; anything else is printed with its stack trace.
 *
 * <p>Environment: {@code FLINK_PLUGINS_DIR}, {@code IT_S3_ENDPOINT}, {@code IT_S3_ACCESS_KEY},
 * {@code IT_S3_SECRET_KEY}, {@code IT_S3_BUCKET}, {@code IT_S3_PREFIX}; optional {@code IT_S3_CLIENT}, the
 * {@code s3.client} to use.
 */
public final class PluginProcessMain {

    static final String OK = "PLUGIN ROUND TRIP OK";
    static final String ENTROPY_MARKER = "_entropy_";

    private PluginProcessMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> env = System.getenv();
        for (FileSystemFactory factory : ServiceLoader.load(FileSystemFactory.class)) {
            if (factory.getScheme().startsWith("s3")) {
                throw new IllegalStateException("The application class path already provides " + factory.getClass()
                        + " for " + factory.getScheme() + "://; the plugin would not be what is tested");
            }
        }
        Configuration configuration = Configuration.fromMap(Map.of(
                "s3.endpoint",
                env.get("IT_S3_ENDPOINT"),
                "s3.access-key",
                env.get("IT_S3_ACCESS_KEY"),
                "s3.secret-key",
                env.get("IT_S3_SECRET_KEY"),
                "s3.region",
                "us-east-1",
                "s3.path-style-access",
                "true",
                "s3.entropy.key",
                ENTROPY_MARKER,
                "s3.entropy.length",
                "4"));
        if (env.get("IT_S3_CLIENT") != null) {
            configuration.setString("s3.client", env.get("IT_S3_CLIENT"));
        }
        FileSystem.initialize(configuration, PluginUtils.createPluginManagerFromRootFolder(configuration));

        for (String scheme : new String[] {"s3", "s3a", "s3p"}) {
            Path path =
                    new Path(scheme + "://" + env.get("IT_S3_BUCKET") + "/" + env.get("IT_S3_PREFIX") + "/" + scheme);
            byte[] data = ("written through the plugin as " + scheme).getBytes(StandardCharsets.UTF_8);
            FileSystem fs = path.getFileSystem();
            try (OutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
                out.write(data);
            }
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            try (InputStream in = fs.open(path)) {
                in.transferTo(read);
            }
            if (!Arrays.equals(read.toByteArray(), data)) {
                throw new IllegalStateException("read back " + read.size() + " bytes that differ from the "
                        + data.length + " written to " + path);
            }
            // Flink wraps a plugin's filesystem in PluginFileSystemFactory's class-loader-fixing wrapper.
            System.out.println(scheme + ":// served by " + fs.getClass().getName());
        }
        writeWithEntropy(new Path("s3://" + env.get("IT_S3_BUCKET") + "/" + env.get("IT_S3_PREFIX") + "/"
                + ENTROPY_MARKER + "/chk-1/data"));
        System.out.println(OK);
    }

    /** Flink's checkpoint streams inject entropy this way; it must see through the plugin wrapper. */
    private static void writeWithEntropy(Path marked) throws Exception {
        FileSystem fs = marked.getFileSystem();
        if (!EntropyInjector.isEntropyInjecting(fs, marked)) {
            throw new IllegalStateException("the plugin's filesystem does not inject entropy into " + marked);
        }
        OutputStreamAndPath created = EntropyInjector.createEntropyAware(fs, marked, WriteMode.NO_OVERWRITE);
        try (OutputStream out = created.stream()) {
            out.write("checkpoint data".getBytes(StandardCharsets.UTF_8));
        }
        if (created.path().toString().contains(ENTROPY_MARKER)) {
            throw new IllegalStateException("entropy marker left in " + created.path());
        }
        System.out.println("entropy injected: " + created.path());
    }
}
