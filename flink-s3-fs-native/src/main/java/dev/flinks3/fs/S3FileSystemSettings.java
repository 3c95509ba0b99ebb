package dev.flinks3.fs;

import dev.flinks3.transfer.S3Settings;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;

/**
 * What one filesystem factory was configured with: the {@link S3Settings} of the S3 side and the
 * settings only the Flink filesystem uses (entropy injection, bulk copy, shutdown timeouts, metrics log). Built
 * once in {@link #fromConfiguration(Configuration)}, which validates everything. Immutable;
 * {@link #toString()} shows no secrets.
 */
public final class S3FileSystemSettings {

    /** Characters an entropy key must not contain: they are special in URIs, paths or globs. */
    static final String ENTROPY_KEY_FORBIDDEN = "~#@*+%{}<>[]|\"\\/";

    private final S3Settings s3;
    private final String entropyKey;
    private final int entropyLength;
    private final boolean bulkCopyEnabled;
    private final Duration closeTimeout;
    private final Duration clientCloseTimeout;
    private final Duration connectionMaxIdleTime;
    private final Duration metricsLogInterval;

    private S3FileSystemSettings(
            S3Settings s3,
            String entropyKey,
            int entropyLength,
            boolean bulkCopyEnabled,
            Duration closeTimeout,
            Duration clientCloseTimeout,
            Duration connectionMaxIdleTime,
            Duration metricsLogInterval) {
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.entropyKey = entropyKey;
        this.entropyLength = entropyLength;
        this.bulkCopyEnabled = bulkCopyEnabled;
        this.closeTimeout = closeTimeout;
        this.clientCloseTimeout = clientCloseTimeout;
        this.connectionMaxIdleTime = connectionMaxIdleTime;
        this.metricsLogInterval = metricsLogInterval;
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
        int entropyLength = config.intInRange(S3ConfigOptions.ENTROPY_LENGTH, 1, 64);
        // Accepted for compatibility; validated with the native plugin's range so that a value it
        // rejects is rejected here too.
        config.intInRange(S3ConfigOptions.READ_BUFFER_SIZE, 64 * 1024, 4 * 1024 * 1024);
        config.bool(S3ConfigOptions.ASYNC_ENABLED);
        return new S3FileSystemSettings(
                s3,
                entropyKey,
                entropyLength,
                config.bool(S3ConfigOptions.BULK_COPY_ENABLED),
                config.positiveDuration(S3ConfigOptions.CLOSE_TIMEOUT),
                config.positiveDuration(S3ConfigOptions.CLIENT_CLOSE_TIMEOUT),
                config.positiveDuration(S3ConfigOptions.CONNECTION_MAX_IDLE_TIME),
                config.nonNegativeDuration(S3ConfigOptions.METRICS_LOG_INTERVAL));
    }

    /** Settings for tests and embedders: the given S3 settings, no entropy injection, defaults otherwise. */
    public static S3FileSystemSettings of(S3Settings s3) {
        return new S3FileSystemSettings(
                s3,
                null,
                S3ConfigOptions.ENTROPY_LENGTH.defaultValue(),
                S3ConfigOptions.BULK_COPY_ENABLED.defaultValue(),
                S3ConfigOptions.CLOSE_TIMEOUT.defaultValue(),
                S3ConfigOptions.CLIENT_CLOSE_TIMEOUT.defaultValue(),
                S3ConfigOptions.CONNECTION_MAX_IDLE_TIME.defaultValue(),
                S3ConfigOptions.METRICS_LOG_INTERVAL.defaultValue());
    }

    /** A copy with entropy injection: {@code key} in paths is replaced by {@code length} random characters. */
    public S3FileSystemSettings withEntropy(String key, int length) {
        return new S3FileSystemSettings(
                s3, key, length, bulkCopyEnabled, closeTimeout, clientCloseTimeout, connectionMaxIdleTime,
                metricsLogInterval);
    }

    private static void checkEntropyKey(ConfigReader config, String key) {
        for (int i = 0; i < key.length(); i++) {
            if (ENTROPY_KEY_FORBIDDEN.indexOf(key.charAt(i)) >= 0) {
                throw ConfigReader.invalid(config.find(S3ConfigOptions.ENTROPY_KEY).orElseThrow(),
                        "a marker without any of " + ENTROPY_KEY_FORBIDDEN);
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

    /** How long closing the filesystem's resources waits for running requests. */
    public Duration closeTimeout() {
        return closeTimeout;
    }

    /** How long closing the S3 client waits for its threads and connections. */
    public Duration clientCloseTimeout() {
        return clientCloseTimeout;
    }

    /** Idle time after which a pooled connection is closed. */
    public Duration connectionMaxIdleTime() {
        return connectionMaxIdleTime;
    }

    /** Time between metrics summary lines in the log; zero for none. */
    public Duration metricsLogInterval() {
        return metricsLogInterval;
    }

    @Override
    public String toString() {
        return "S3FileSystemSettings{" + s3
                + ", entropyKey=" + entropyKey
                + ", entropyLength=" + entropyLength
                + ", bulkCopyEnabled=" + bulkCopyEnabled
                + ", closeTimeout=" + closeTimeout
                + ", clientCloseTimeout=" + clientCloseTimeout
                + ", connectionMaxIdleTime=" + connectionMaxIdleTime
                + ", metricsLogInterval=" + metricsLogInterval
                + "}";
    }
}
