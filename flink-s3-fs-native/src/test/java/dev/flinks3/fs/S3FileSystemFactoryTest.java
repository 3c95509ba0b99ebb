package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.plugin.PluginManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class S3FileSystemFactoryTest {

    /** Enough to build the S3 clients without sending a request. */
    private static final Map<String, String> OFFLINE = Map.of(
            "s3.endpoint", "http://127.0.0.1:9",
            "s3.path-style-access", "true",
            "s3.access-key", "AKIAOFFLINE",
            "s3.secret-key", "offline-secret");

    @AfterEach
    void resetFlinksRegistry() {
        FileSystem.initialize(new Configuration(), null);
    }

    @Test
    void bothSchemesAreRegisteredAsServices() {
        List<String> schemes = new ArrayList<>();
        for (FileSystemFactory factory : ServiceLoader.load(FileSystemFactory.class)) {
            if (factory instanceof S3FileSystemFactory) {
                schemes.add(factory.getScheme());
            }
        }

        assertThat(schemes).containsExactlyInAnyOrder("s3", "s3a", "s3p");
    }

    /** Presto's scheme, so checkpoint and savepoint paths it wrote into metadata restore as they are. */
    @Test
    void s3pIsServedLikeS3() throws IOException {
        FileSystem.initialize(Configuration.fromMap(OFFLINE), null);

        FileSystem fs = FileSystem.get(URI.create("s3p://bucket/chk/1"));

        assertThat(fs).isInstanceOf(S3FileSystem.class);
        assertThat(fs.getUri()).isEqualTo(URI.create("s3p://bucket/"));
        assertThat(new S3PFileSystemFactory().getPriority()).isEqualTo(S3FileSystemFactory.PRIORITY);
    }

    @Test
    void ourPriorityIsAboveEveryOtherS3Plugin() {
        assertThat(new S3FileSystemFactory().getPriority())
                .isEqualTo(S3FileSystemFactory.PRIORITY)
                .isGreaterThan(0);
        assertThat(new S3AFileSystemFactory().getPriority()).isEqualTo(S3FileSystemFactory.PRIORITY);
    }

    @Test
    void aBadValueFailsWhenFlinkConfiguresTheFactory() {
        S3FileSystemFactory factory = new S3FileSystemFactory();

        assertThatThrownBy(() -> factory.configure(Configuration.fromMap(Map.of("fs.s3a.multipart.size", "1k"))))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'fs.s3a.multipart.size'")
                .hasMessageContaining("'1k'");
    }

    @Test
    void flinkPicksOurFactoryOverALowerPriorityPluginForTheSameScheme() throws IOException {
        FileSystem.initialize(Configuration.fromMap(OFFLINE), pluginsWith(new Competitor()));

        FileSystem fs = FileSystem.get(URI.create("s3://bucket/path"));

        assertThat(fs).isInstanceOf(S3FileSystem.class);
        assertThat(fs.getUri()).isEqualTo(URI.create("s3://bucket/"));
        assertThat(FileSystem.get(URI.create("s3a://bucket/path"))).isInstanceOf(S3FileSystem.class);
    }

    @Test
    void theUserCanPreferAnotherPluginByConfiguration() {
        Map<String, String> config = new java.util.HashMap<>(OFFLINE);
        config.put("fs.s3.priority." + S3FileSystemFactory.class.getName(), "-10");
        FileSystem.initialize(Configuration.fromMap(config), pluginsWith(new Competitor()));

        assertThatThrownBy(() -> FileSystem.get(URI.create("s3://bucket/path"))).hasMessage("competitor");
    }

    @Test
    void aFileSystemOfAReconfiguredFactoryFailsSayingItIsClosed() throws IOException {
        // Every scheme and factory of one configuration shares its S3 client, which closes with its last lease: a
        // configuration of this test's own, so that no filesystem of another test keeps the client open.
        Map<String, String> own = new java.util.HashMap<>(OFFLINE);
        own.put(S3ConfigOptions.MAX_CONNECTIONS.key(), "17");
        S3FileSystemFactory factory = new S3FileSystemFactory();
        factory.configure(Configuration.fromMap(own));
        FileSystem fs = factory.create(URI.create("s3://bucket/"));
        factory.configure(Configuration.fromMap(own));
        Path path = new Path("s3://bucket/dir/file");

        assertThatThrownBy(() -> fs.getFileStatus(path))
                .isExactlyInstanceOf(IOException.class)
                .hasMessageContaining("s3://bucket/dir/file")
                .hasMessageContaining("the S3 filesystem is closed");
        assertThatThrownBy(() -> {
                    try (FSDataOutputStream out = fs.create(path, FileSystem.WriteMode.OVERWRITE)) {
                        out.write(1);
                    }
                })
                .isInstanceOf(IOException.class)
                .hasMessageContaining("s3://bucket/dir/file")
                .hasMessageContaining("the S3 filesystem is closed");
        assertThatThrownBy(() -> fs.listStatus(new Path("s3://bucket/dir")))
                .isExactlyInstanceOf(IOException.class)
                .hasMessageContaining("s3://bucket/dir")
                .hasMessageContaining("the S3 filesystem is closed");
    }

    private static PluginManager pluginsWith(FileSystemFactory factory) {
        return new PluginManager() {
            @Override
            @SuppressWarnings("unchecked")
            public <P> java.util.Iterator<P> load(Class<P> service) {
                return service == FileSystemFactory.class
                        ? (java.util.Iterator<P>) List.of(factory).iterator()
                        : Collections.emptyIterator();
            }
        };
    }

    /** Another S3 plugin at the default priority 0, as Flink's Hadoop and Presto plugins are. */
    private static final class Competitor implements FileSystemFactory {
        @Override
        public String getScheme() {
            return "s3";
        }

        @Override
        public FileSystem create(URI fsUri) throws IOException {
            throw new IOException("competitor");
        }
    }
}
