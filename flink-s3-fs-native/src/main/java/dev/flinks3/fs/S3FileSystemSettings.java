package dev.flinks3.fs;

import dev.flinks3.transfer.S3Settings;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one filesystem factory was configured with: the {@link S3Settings} of the S3 side and the
 * settings only the Flink filesystem uses (entropy injection, bulk copy, directory markers, shutdown timeouts, metrics
 * log). Built
 * once in {@link #fromConfiguration(Configuration)}, which validates everything. Immutable;
 * {@link #toString()} shows no secrets.
 */
public final class S3FileSystemSettings {

    private static final Logger LOG = LoggerFactory.getLogger(S3FileSystemSettings.class);

    /** Keys of compatibility-only options already named in a warning in this process. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    /** Characters an entropy key must not contain: they are special in URIs, paths or globs. */
    static final String ENTROPY_KEY_FORBIDDEN = "~#@*+%{}<>[]|\"\\/";

    private final S3Settings s3;
    private final String entropyKey;
    private final int entropyLength;
    private final boolean bulkCopyEnabled;
    private final Duration closeTimeout;
    private final Duration metricsLogInterval;
    private final boolean multipartCheckOnCreate;
    private final Duration multipartPurgeAge;
    private final boolean directoryMarkers;

    private S3FileSystemSettings(
            S3Settings s3,
            String entropyKey,
            int entropyLength,
            boolean bulkCopyEnabled,
            Duration closeTimeout,
            Duration metricsLogInterval,
            boolean multipartCheckOnCreate,
            Duration multipartPurgeAge,
            boolean directoryMarkers) {
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.entropyKey = entropyKey;
        this.entropyLength = entropyLength;
        this.bulkCopyEnabled = bulkCopyEnabled;
        this.closeTimeout = closeTimeout;
        this.metricsLogInterval = metricsLogInterval;
        this.multipartCheckOnCreate = multipartCheckOnCreate;
        this.multipartPurgeAge = multipartPurgeAge;
        this.directoryMarkers = directoryMarkers;
    }

    /**
     * Reads and validates every option of {@link S3ConfigOptions}.
     *
     * @throws IllegalConfigurationException naming the key, the value given and what is allowed
     */
    public static S3FileSystemSettings fromConfiguration(Configuration configuration) {
        return fromConfiguration(configuration, null);
    }

    /**
     * Reads and validates every option for one bucket: its per-bucket keys ({@code
     * s3.bucket.<bucket>.<key>}, {@code fs.s3a.bucket.<bucket>.<key>}) override the global ones.
     *
     * @param bucket the bucket, or {@code null} for the global configuration
     * @throws IllegalConfigurationException naming the key as written, the value given and what is allowed
     */
    public static S3FileSystemSettings fromConfiguration(Configuration configuration, String bucket) {
        ConfigReader config = new ConfigReader(configuration, bucket);
        S3Settings s3 = S3SettingsFactory.create(config);
        String entropyKey = config.string(S3ConfigOptions.ENTROPY_KEY);
        if (entropyKey != null) {
            checkEntropyKey(config, entropyKey);
        }
        int entropyLength = config.intInRange(S3ConfigOptions.ENTROPY_LENGTH);
        // Accepted for compatibility; validated with the native plugin's range so that a value it
        // rejects is rejected here too, and named in a warning when it asks for what is not done.
        int readBufferSize = config.intInRange(S3ConfigOptions.READ_BUFFER_SIZE);
        warnIgnoredOnce(
                config,
                S3ConfigOptions.READ_BUFFER_SIZE,
                readBufferSize != S3ConfigOptions.READ_BUFFER_SIZE.defaultValue(),
                "reads are sized by '" + S3ConfigOptions.READ_AHEAD_SIZE.key() + "'");
        Duration clientCloseTimeout = config.positiveDuration(S3ConfigOptions.CLIENT_CLOSE_TIMEOUT);
        warnIgnoredOnce(
                config,
                S3ConfigOptions.CLIENT_CLOSE_TIMEOUT,
                !clientCloseTimeout.equals(S3ConfigOptions.CLIENT_CLOSE_TIMEOUT.defaultValue()),
                "closing waits '" + S3ConfigOptions.CLOSE_TIMEOUT.key() + "' for running uploads, then closes the S3"
                        + " client at once");
        warnIgnoredOnce(
                config,
                S3ConfigOptions.ASYNC_ENABLED,
                !config.bool(S3ConfigOptions.ASYNC_ENABLED),
                "every transfer of this plugin is asynchronous");
        return new S3FileSystemSettings(
                s3,
                entropyKey,
                entropyLength,
                config.bool(S3ConfigOptions.BULK_COPY_ENABLED),
                config.positiveDuration(S3ConfigOptions.CLOSE_TIMEOUT),
                config.nonNegativeDuration(S3ConfigOptions.METRICS_LOG_INTERVAL),
                config.bool(S3ConfigOptions.SSE_KMS_CHECK_ON_CREATE),
                config.nonNegativeDuration(S3ConfigOptions.MULTIPART_PURGE_AGE),
                config.bool(S3ConfigOptions.DIRECTORY_MARKERS_ENABLED));
    }

    /** Settings for tests and embedders: the given S3 settings, no entropy injection, defaults otherwise. */
    public static S3FileSystemSettings of(S3Settings s3) {
        return new S3FileSystemSettings(
                s3,
                null,
                S3ConfigOptions.ENTROPY_LENGTH.defaultValue(),
                S3ConfigOptions.BULK_COPY_ENABLED.defaultValue(),
                S3ConfigOptions.CLOSE_TIMEOUT.defaultValue(),
                S3ConfigOptions.METRICS_LOG_INTERVAL.defaultValue(),
                S3ConfigOptions.SSE_KMS_CHECK_ON_CREATE.defaultValue(),
                S3ConfigOptions.MULTIPART_PURGE_AGE.defaultValue(),
                S3ConfigOptions.DIRECTORY_MARKERS_ENABLED.defaultValue());
    }

    /** A copy with entropy injection: {@code key} in paths is replaced by {@code length} random characters. */
    public S3FileSystemSettings withEntropy(String key, int length) {
        return new S3FileSystemSettings(
                s3,
                key,
                length,
                bulkCopyEnabled,
                closeTimeout,
                metricsLogInterval,
                multipartCheckOnCreate,
                multipartPurgeAge,
                directoryMarkers);
    }

    /** A copy that writes directory markers on {@code mkdirs} ({@code true}) or sends nothing ({@code false}). */
    public S3FileSystemSettings withDirectoryMarkers(boolean markers) {
        return new S3FileSystemSettings(
                s3,
                entropyKey,
                entropyLength,
                bulkCopyEnabled,
                closeTimeout,
                metricsLogInterval,
                multipartCheckOnCreate,
                multipartPurgeAge,
                markers);
    }

    /**
     * Logs once per process that a compatibility-only option was set to a value this plugin does not
     * act on, naming the key as written and why.
     */
    private static void warnIgnoredOnce(ConfigReader config, ConfigOption<?> option, boolean ignored, String why) {
        if (!ignored) {
            return;
        }
        String key = config.find(option).map(e -> e.key).orElse(option.key());
        if (WARNED.add(key)) {
            LOG.warn(
                    "Configuration key '{}' is accepted for compatibility with Flink's native S3 plugin and has no"
                            + " effect here: {}.",
                    key,
                    why);
        }
    }

    private static void checkEntropyKey(ConfigReader config, String key) {
        for (int i = 0; i < key.length(); i++) {
            if (ENTROPY_KEY_FORBIDDEN.indexOf(key.charAt(i)) >= 0) {
                throw ConfigReader.invalid(
                        config.find(S3ConfigOptions.ENTROPY_KEY).orElseThrow(),
                        FileSystemOptions.ENTROPY_KEY.allowedText());
            }
        }
    }

    public S3Settings s3() {
        return s3;
    }

    /** The entropy marker, or {@code null} when entropy injection is off. */
    public String entropyKey() {
        return entropyKey;
    }

    /** Random characters that replace the entropy marker. */
    public int entropyLength() {
        return entropyLength;
    }

    /** Whether {@code PathsCopyingFileSystem} bulk copies are offered. */
    public boolean bulkCopyEnabled() {
        return bulkCopyEnabled;
    }

    /**
     * Whether {@code mkdirs} writes a directory marker ({@code key/}, zero bytes) so that an empty directory
     * exists ({@code s3.directory-markers.enabled}); without, it sends no request.
     */
    public boolean directoryMarkers() {
        return directoryMarkers;
    }

    /** How long closing the filesystem's resources waits for running requests. */
    public Duration closeTimeout() {
        return closeTimeout;
    }

    /** Time between metrics summary lines in the log; zero for none. */
    public Duration metricsLogInterval() {
        return metricsLogInterval;
    }

    /**
     * Whether creating the filesystem of a bucket checks that multipart uploads work there ({@code
     * s3.sse.kms.check-on-create}, see {@link MultipartUploadCheck}).
     */
    public boolean multipartCheckOnCreate() {
        return multipartCheckOnCreate;
    }

    /**
     * Age after which multipart uploads under the checkpoint and savepoint directories are aborted when the
     * filesystem of their bucket is created ({@code s3.multipart.purge.age}, see {@link AbandonedUploadPurge}); zero
     * for none.
     */
    public Duration multipartPurgeAge() {
        return multipartPurgeAge;
    }

    @Override
    public String toString() {
        return "S3FileSystemSettings{" + s3
                + ", entropyKey=" + entropyKey
                + ", entropyLength=" + entropyLength
                + ", bulkCopyEnabled=" + bulkCopyEnabled
                + (directoryMarkers ? "" : ", directoryMarkers=false")
                + ", closeTimeout=" + closeTimeout
                + ", metricsLogInterval=" + metricsLogInterval
                + (multipartCheckOnCreate ? ", multipartCheckOnCreate=true" : "")
                + (multipartPurgeAge.isZero() ? "" : ", multipartPurgeAge=" + multipartPurgeAge)
                + "}";
    }
}
