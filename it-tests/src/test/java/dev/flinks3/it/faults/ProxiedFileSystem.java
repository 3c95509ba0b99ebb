package dev.flinks3.it.faults;

import dev.flinks3.fs.PathsCopyingS3FileSystem;
import dev.flinks3.fs.S3FileSystem;
import dev.flinks3.fs.S3FileSystemSettings;
import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.sdk.S3ClientOwner;
import dev.flinks3.transfer.sdk.S3RequestMetrics;
import java.net.URI;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;

/**
 * Our {@code s3://} filesystem on the shared S3Proxy, reached through a {@link FaultInjectingProxy},
 * wired the way {@code S3FileSystemFactory} wires it (settings from a Flink configuration, one client
 * owner, one upload engine), so the test can also read the owner's {@link S3RequestMetrics}: the
 * factory keeps its owner to itself. Close after use.
 */
public final class ProxiedFileSystem implements AutoCloseable {

    private final S3ClientOwner owner;
    private final S3FileSystem fs;

    private ProxiedFileSystem(S3ClientOwner owner, S3FileSystem fs) {
        this.owner = owner;
        this.fs = fs;
    }

    /**
     * @param options {@code s3.*} options on top of the endpoint, keys, region and path style
     * @throws org.apache.flink.configuration.IllegalConfigurationException for a bad option
     */
    public static ProxiedFileSystem create(FaultInjectingProxy proxy, Map<String, String> options) {
        return create(proxy, options, UnaryOperator.identity());
    }

    /**
     * As {@link #create(FaultInjectingProxy, Map)}, with S3 settings that have no configuration key, or
     * whose value the configuration would reject, changed by {@code tweak} (the other filesystem settings
     * are then the defaults).
     */
    public static ProxiedFileSystem create(
            FaultInjectingProxy proxy, Map<String, String> options, UnaryOperator<S3Settings.Builder> tweak) {
        return create(proxy, SharedS3ProxyTarget.flinkConfiguration(), SharedS3ProxyTarget.bucket(), options, tweak);
    }

    /**
     * As {@link #create(FaultInjectingProxy, Map)} for another server than the shared S3Proxy: the proxy
     * must be in front of the server that {@code server} configures.
     *
     * @param server the Flink configuration that reaches the server directly (keys, region, path style)
     * @param bucket the bucket the filesystem is for
     */
    public static ProxiedFileSystem create(
            FaultInjectingProxy proxy, Configuration server, String bucket, Map<String, String> options) {
        return create(proxy, server, bucket, options, UnaryOperator.identity());
    }

    private static ProxiedFileSystem create(
            FaultInjectingProxy proxy,
            Configuration server,
            String bucket,
            Map<String, String> options,
            UnaryOperator<S3Settings.Builder> tweak) {
        Configuration configuration = new Configuration(server);
        configuration.setString("s3.endpoint", proxy.endpoint().toString());
        options.forEach(configuration::setString);
        S3FileSystemSettings configured = S3FileSystemSettings.fromConfiguration(configuration);
        S3FileSystemSettings settings = tweak == UnaryOperator.<S3Settings.Builder>identity()
                ? configured
                : S3FileSystemSettings.of(
                        tweak.apply(configured.s3().toBuilder()).build());
        S3ClientOwner owner = new S3ClientOwner(settings.s3());
        UploadEngine uploads =
                new UploadEngine(owner.objectClient(), settings.s3().upload());
        // The class the factory creates on Flink 2.x, which also offers PathsCopyingFileSystem's bulk copy.
        S3FileSystem fs = PathsCopyingS3FileSystem.create(
                URI.create("s3://" + bucket + "/"),
                owner.objectClient(),
                uploads,
                uploads,
                owner.bulkDownloader()::download,
                null,
                settings);
        return new ProxiedFileSystem(owner, fs);
    }

    public FileSystem fs() {
        return fs;
    }

    /** The counts so far of the filesystem's S3 requests. */
    public S3RequestMetrics.Snapshot metrics() {
        return owner.requestMetrics().snapshot();
    }

    @Override
    public void close() throws Exception {
        owner.close();
    }

    /** The filesystem and its client owner as their own {@code toString()} show them. */
    @Override
    public String toString() {
        return fs + " on " + owner;
    }
}
