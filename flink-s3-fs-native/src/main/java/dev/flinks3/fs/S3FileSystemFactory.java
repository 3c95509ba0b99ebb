package dev.flinks3.fs;

import java.io.IOException;
import java.net.URI;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the filesystem for {@code s3://} paths; {@link S3AFileSystemFactory} does the same for
 * {@code s3a://} (the Hadoop plugin's scheme) and {@link S3PFileSystemFactory} for {@code s3p://} (the Presto
 * plugin's). Registered in {@code META-INF/services/org.apache.flink.core.fs.FileSystemFactory}.
 *
 * <p><b>Configuration.</b> {@link #configure} reads and validates every option of {@link
 * S3ConfigOptions} and fails with an {@link IllegalConfigurationException} naming the key, so a bad
 * value stops the process at start-up. The S3 client of a configuration is built at the first {@link
 * #create} and shared by every filesystem of this factory (one per bucket, as Flink caches filesystems
 * by scheme and authority) until the factory is configured again. Every S3 client of the process, of
 * both schemes and every per-bucket configuration, is a light client on the one {@link S3Runtime}: one
 * HTTP connection pool, one set of executors, one upload budget and one read-ahead budget per process.
 *
 * <p><b>Per-bucket configuration.</b> A key set for one bucket ({@code s3.bucket.<bucket>.<key>}, or
 * S3A's {@code fs.s3a.bucket.<bucket>.<key>}; see {@link BucketKeys}) overrides the global key for the
 * filesystems of that bucket. Every bucket so configured is validated in {@link #configure}; buckets
 * whose per-bucket keys and values are equal share one S3 client, and buckets without any share the
 * global one.
 *
 * <p><b>Priority.</b> Flink 2.3 registers, for each scheme, the factory with the highest {@link
 * #getPriority()}; the configuration key {@code fs.<scheme>.priority.<factory class>} overrides a
 * factory's own priority. Flink's {@code flink-s3-fs-native} declares -1 and the Hadoop and Presto
 * plugins 0, so this factory, at {@value #PRIORITY}, wins when several S3 plugins are installed. To
 * prefer another plugin, give it a higher priority, e.g. {@code
 * fs.s3.priority.org.apache.flink.fs.s3hadoop.S3FileSystemFactory: 100}, or lower ours with {@code
 * fs.s3.priority.dev.flinks3.fs.S3FileSystemFactory: -10}. Flink versions before 2.3 know no
 * priorities: there, install only one plugin per scheme.
 */
public class S3FileSystemFactory implements FileSystemFactory {

    /** Above every other S3 plugin's default priority (Flink's native plugin: -1, Hadoop and Presto: 0). */
    public static final int PRIORITY = 10;

    private static final Logger LOG = LoggerFactory.getLogger(S3FileSystemFactory.class);
    private static final SortedMap<String, String> NO_OVERRIDES = Collections.emptySortedMap();
    /** Flink 2.0+ has PathsCopyingFileSystem; Flink 1.20 cannot define {@link PathsCopyingS3FileSystem}. */
    private static final boolean PATHS_COPYING = flinkHas("org.apache.flink.core.fs.PathsCopyingFileSystem");

    private S3FileSystemSettings settings;
    private Map<String, S3FileSystemSettings> bucketSettings = Map.of();
    private Map<String, SortedMap<String, String>> bucketOverrides = Map.of();
    /** The configuration's values: with the per-bucket overrides, what tells configurations apart. */
    private SortedMap<String, String> values = NO_OVERRIDES;
    /** Buckets whose multipart uploads were checked at creation ({@code s3.sse.kms.check-on-create}). */
    private final Set<String> multipartChecked = new HashSet<>();
    /** The purge of abandoned uploads under the checkpoint and savepoint directories ({@code s3.multipart.purge.age}). */
    private AbandonedUploadPurge purge = AbandonedUploadPurge.of(Map.of(), null);
    /** Buckets purged of abandoned uploads by this factory. */
    private final Set<String> purged = new HashSet<>();

    /** This factory's leases on the runtime's clients, by per-bucket overrides (empty: global). */
    private final Map<SortedMap<String, String>, S3Runtime.Client> clients = new HashMap<>();

    @Override
    public String getScheme() {
        return "s3";
    }

    @Override
    public int getPriority() {
        return PRIORITY;
    }

    /**
     * Reads and validates the configuration. Sends no request and starts no thread: Flink configures
     * every installed factory, also those that lose on priority. A previous configuration's clients are
     * closed. Keys under the plugin's prefixes that no option reads are named in one warning ({@link
     * UnknownKeys}).
     *
     * @throws IllegalConfigurationException naming the key, the value and what is allowed
     */
    @Override
    public synchronized void configure(Configuration config) {
        S3FileSystemSettings parsed = S3FileSystemSettings.fromConfiguration(config);
        Map<String, S3FileSystemSettings> perBucket = new HashMap<>();
        Map<String, SortedMap<String, String>> overrides = new HashMap<>();
        Map<String, String> values = config.toMap();
        for (String bucket : BucketKeys.buckets(values.keySet())) {
            perBucket.put(bucket, S3FileSystemSettings.fromConfiguration(config, bucket));
            overrides.put(bucket, BucketKeys.overrides(values, bucket));
            refuseProcessWideKeys(new ConfigReader(config, bucket));
        }
        UnknownKeys.warnOnce(config);
        closeClients();
        multipartChecked.clear();
        purged.clear();
        purge = AbandonedUploadPurge.of(values, parsed.entropyKey());
        settings = parsed;
        bucketSettings = perBucket;
        bucketOverrides = overrides;
        this.values = new TreeMap<>(values);
    }

    /**
     * Refuses a per-bucket value of a key that holds for the whole process ({@link S3Runtime#PROCESS_WIDE}): one
     * buffer budget and one metrics log serve every bucket, so such a value could not take effect.
     *
     * @throws IllegalConfigurationException naming the per-bucket key as written, its value and the global key
     */
    private static void refuseProcessWideKeys(ConfigReader bucketConfig) {
        for (ConfigOption<?> option : S3Runtime.PROCESS_WIDE) {
            bucketConfig.findScoped(option).ifPresent(entry -> {
                throw new IllegalConfigurationException("'" + entry.key + "' = '" + entry.value + "' cannot be set per"
                        + " bucket: '" + option.key() + "' holds for the whole process (one value for every"
                        + " bucket). Set '" + option.key() + "' instead, or remove '" + entry.key + "'.");
            });
        }
    }

    /**
     * The filesystem for {@code fsUri}'s bucket; builds the shared S3 clients on the first call.
     *
     * @throws IOException if the S3 client cannot be built from the configuration
     */
    @Override
    public synchronized FileSystem create(URI fsUri) throws IOException {
        if (settings == null) {
            settings = S3FileSystemSettings.fromConfiguration(new Configuration());
        }
        String bucket = fsUri.getAuthority();
        S3FileSystemSettings effective = bucket == null ? settings : bucketSettings.getOrDefault(bucket, settings);
        SortedMap<String, String> overrides =
                bucket == null ? NO_OVERRIDES : bucketOverrides.getOrDefault(bucket, NO_OVERRIDES);
        S3Runtime.Client backend = clients.get(overrides);
        if (backend == null) {
            try {
                backend = S3Runtime.lease(settings, effective, List.of(values, overrides), getScheme());
            } catch (RuntimeException e) {
                throw new IOException(
                        "Could not create the S3 client for " + getScheme() + "://"
                                + (overrides.isEmpty() ? "" : bucket) + ": " + e.getMessage(),
                        e);
            }
            clients.put(overrides, backend);
        }
        if (effective.multipartCheckOnCreate() && bucket != null && multipartChecked.add(bucket)) {
            try {
                MultipartUploadCheck.run(backend.objectClient(), getScheme(), bucket);
            } catch (IOException e) {
                multipartChecked.remove(bucket);
                throw e;
            }
        }
        if (!effective.multipartPurgeAge().isZero() && bucket != null && purged.add(bucket)) {
            purge.run(
                    backend.objectClient(),
                    getScheme(),
                    bucket,
                    effective.multipartPurgeAge(),
                    System.currentTimeMillis());
        }
        S3FileSystem fs = PATHS_COPYING
                ? PathsCopyingS3FileSystem.create(
                        fsUri,
                        backend.objectClient(),
                        backend.uploads(),
                        backend.streams(),
                        backend.bulkCopy(),
                        backend.readAhead(),
                        effective)
                : new S3FileSystem(
                        fsUri,
                        backend.objectClient(),
                        backend.uploads(),
                        backend.streams(),
                        backend.bulkCopy(),
                        backend.readAhead(),
                        effective);
        StartupLine.logOnce(backend, effective.s3().client());
        LOG.info("Created {} (flinks3) on {} with {}", fs.getUri(), backend, effective);
        return fs;
    }

    /** Whether Flink's class loader (parent-first for {@code org.apache.flink}) has the class. */
    private static boolean flinkHas(String className) {
        try {
            Class.forName(className, false, FileSystem.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Gives back this factory's share of the process runtime: its S3 clients close once no other
     * factory (of any scheme) uses the same configuration, and the runtime once no client is left.
     * Filesystems of this factory fail afterwards, unless another factory still holds their client. Flink never calls it (filesystems live as long as the process); {@link
     * #configure} does, and embedders and tests may. Idempotent.
     */
    public synchronized void close() {
        closeClients();
    }

    private void closeClients() {
        for (S3Runtime.Client client : clients.values()) {
            try {
                client.close();
            } catch (IOException e) {
                LOG.warn("Could not close the S3 clients of the previous configuration", e);
            }
        }
        clients.clear();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{scheme=" + getScheme() + "}";
    }
}
