package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.testserver.TestCertificates;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.ClientSettings.HttpClientType;
import dev.flinks3.transfer.EncryptionSettings.SseType;
import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.UploadSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(60)
class S3SettingsFactoryTest {

    private static final String CUSTOMER_KEY =
            Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));

    @Test
    @Timeout(10)
    void theOptionsDefaultsAreTheSettingsBuildersDefaults() {
        // One declaration of every default: the factory reading nothing builds what the builders start from
        // (the buffer limit, unset, is derived from the heap, see defaultBufferLimit; the largest grown part
        // from the attempt timeout, see maxGrownPartBytes).
        S3Settings fromEmptyConfiguration = S3SettingsFactory.create(new Configuration());
        long bufferLimit = fromEmptyConfiguration.upload().maxBufferedBytesPerProcess();
        long grownPart = S3SettingsFactory.maxGrownPartBytes(ClientSettings.API_CALL_ATTEMPT_TIMEOUT.defaultValue());

        assertThat(fromEmptyConfiguration.toString())
                .isEqualTo(S3Settings.builder()
                        .upload(u -> u.maxBufferedBytesPerProcess(bufferLimit).maxGrownPartBytes(grownPart))
                        .build()
                        .toString());
        assertThat(bufferLimit)
                .isEqualTo(S3SettingsFactory.defaultBufferLimit(
                        UploadSettings.DEFAULT_PART_SIZE, Runtime.getRuntime().maxMemory()));
    }

    @Test
    @Timeout(10)
    void theSeedsNativeSpellingsSetThePartSizeAndTheConnectionPool() {
        S3Settings s = settings(Map.of("s3.upload.part.size", "16 mb", "s3.async-client.max-concurrency", "100"));

        assertThat(s.upload().partSizeBytes()).isEqualTo(16L << 20);
        assertThat(s.client().maxConnections()).isEqualTo(100);
        // Our key wins over the other spelling.
        assertThat(settings(Map.of("s3.upload.part.size", "16 mb", "s3.upload.min.part.size", "32 mb"))
                        .upload()
                        .partSizeBytes())
                .isEqualTo(32L << 20);
    }

    @Test
    @Timeout(10)
    void theBulkCopyRangeSizeIsItsOwnSetting() {
        S3Settings s = settings(Map.of("s3.bulk-copy.range-size", "1 mb", "s3.upload.min.part.size", "64 mb"));

        assertThat(s.read().bulkCopyRangeBytes()).isEqualTo(1L << 20);
        assertThat(s.upload().partSizeBytes()).isEqualTo(64L << 20);
        assertThat(settings(Map.of("s3.upload.min.part.size", "64 mb")).read().bulkCopyRangeBytes())
                .isEqualTo(ReadSettings.BULK_COPY_RANGE_BYTES.defaultValue());
    }

    @Test
    void anEmptyConfigurationGivesTheDocumentedDefaults() {
        S3FileSystemSettings fs = S3FileSystemSettings.fromConfiguration(new Configuration());
        S3Settings s = fs.s3();

        assertThat(s.client().endpoint()).isNull();
        assertThat(s.client().region()).isNull();
        assertThat(s.client().pathStyleAccess()).isFalse();
        assertThat(s.client().credentials().accessKey()).isNull();
        assertThat(s.client().credentials().credentialsProviderClasses()).isEmpty();
        assertThat(s.client().credentials().assumeRoleSessionName()).isEqualTo("flink-s3-session");
        assertThat(s.client().credentials().assumeRoleDuration()).isEqualTo(Duration.ofHours(1));
        assertThat(s.client().client()).isEqualTo(ClientSettings.ClientType.SDK);
        assertThat(s.client().httpClient()).isEqualTo(HttpClientType.CRT);
        assertThat(s.client().maxConnections()).isEqualTo(96);
        assertThat(s.client().connectionTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(s.client().socketTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(s.client().apiCallAttemptTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(s.client().apiCallTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(s.client().maxRetries()).isEqualTo(10);
        assertThat(s.upload().partSizeBytes()).isEqualTo(8L << 20);
        assertThat(s.upload().maxPartsInFlightPerStream()).isEqualTo(8);
        assertThat(s.upload().maxBufferedBytesPerProcess())
                .isEqualTo(Math.max(
                        16L << 20, Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4)));
        assertThat(s.read().readAheadBytes()).isEqualTo(8L << 20);
        assertThat(s.read().readAheadParallelism()).isEqualTo(8);
        assertThat(s.read().bulkCopyConcurrency()).isEqualTo(16);
        assertThat(s.read().directGetsEnabled()).isTrue();
        assertThat(s.encryption().sseType()).isEqualTo(SseType.NONE);
        assertThat(s.client().checksumsEnabled()).isTrue();
        assertThat(s.client().chunkedEncodingEnabled()).isTrue();
        assertThat(s.client().expectContinueEnabled()).isTrue();
        assertThat(s.upload().conditionalWritesEnabled()).isTrue();
        assertThat(fs.entropyKey()).isNull();
        assertThat(fs.entropyLength()).isEqualTo(4);
        assertThat(fs.bulkCopyEnabled()).isTrue();
    }

    static Stream<Arguments> spellings() {
        return Stream.of(
                spelling(
                        Map.of("s3.endpoint", "http://minio:9000"),
                        (S3Settings s) -> s.client().endpoint(),
                        URI.create("http://minio:9000")),
                spelling(
                        Map.of("fs.s3a.endpoint", "minio:9000"),
                        (S3Settings s) -> s.client().endpoint(),
                        URI.create("https://minio:9000")),
                spelling(
                        Map.of("fs.s3a.endpoint", "minio:9000", "fs.s3a.connection.ssl.enabled", "false"),
                        (S3Settings s) -> s.client().endpoint(),
                        URI.create("http://minio:9000")),
                spelling(
                        Map.of("presto.s3.endpoint", "ceph.local", "s3.ssl.enabled", "false"),
                        (S3Settings s) -> s.client().endpoint(),
                        URI.create("http://ceph.local")),
                spelling(
                        Map.of("s3.endpoint", "http://minio:9000"),
                        (S3Settings s) -> s.client().region(),
                        "us-east-1"),
                spelling(
                        Map.of("fs.s3a.endpoint.region", "eu-west-1"),
                        (S3Settings s) -> s.client().region(),
                        "eu-west-1"),
                spelling(
                        Map.of("s3.path.style.access", "true"),
                        (S3Settings s) -> s.client().pathStyleAccess(),
                        true),
                spelling(
                        Map.of("fs.s3a.path.style.access", "TRUE"),
                        (S3Settings s) -> s.client().pathStyleAccess(),
                        true),
                spelling(
                        Map.of("presto.s3.path-style-access", "true"),
                        (S3Settings s) -> s.client().pathStyleAccess(),
                        true),
                spelling(
                        Map.of("s3.access.key", "AKIA1", "s3.secret.key", "s"),
                        (S3Settings s) -> s.client().credentials().accessKey(),
                        "AKIA1"),
                spelling(
                        Map.of("fs.s3a.access.key", "AKIA2", "fs.s3a.secret.key", "s"),
                        (S3Settings s) -> s.client().credentials().accessKey(),
                        "AKIA2"),
                spelling(
                        Map.of("presto.s3.access-key", "AKIA3", "presto.s3.secret-key", "s"),
                        (S3Settings s) -> s.client().credentials().accessKey(),
                        "AKIA3"),
                spelling(
                        Map.of("s3.access-key", "A", "fs.s3a.secret.key", "sec"),
                        s -> s.client().credentials().secretKey().reveal(),
                        "sec"),
                spelling(
                        Map.of("s3.access-key", "A", "s3.secret-key", "S", "fs.s3a.session.token", "tok"),
                        s -> s.client().credentials().sessionToken().reveal(),
                        "tok"),
                spelling(
                        Map.of(
                                "fs.s3a.aws.credentials.provider",
                                "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider,"
                                        + " com.amazonaws.auth.EnvironmentVariableCredentialsProvider"),
                        (S3Settings s) -> s.client().credentials().credentialsProviderClasses(),
                        List.of("software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider")),
                spelling(
                        Map.of("fs.s3.aws.credentials.provider", "AnonymousCredentialsProvider"),
                        (S3Settings s) -> s.client().credentials().credentialsProviderClasses(),
                        List.of("software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider")),
                spelling(
                        Map.of("fs.s3a.assumed.role.arn", "arn:aws:iam::1:role/r"),
                        (S3Settings s) -> s.client().credentials().assumeRoleArn(),
                        "arn:aws:iam::1:role/r"),
                spelling(
                        Map.of("s3.assume-role.external-id", "ext"),
                        (S3Settings s) -> s.client().credentials().assumeRoleExternalId(),
                        "ext"),
                spelling(
                        Map.of("fs.s3a.assumed.role.session.name", "job-1"),
                        (S3Settings s) -> s.client().credentials().assumeRoleSessionName(),
                        "job-1"),
                spelling(
                        Map.of("s3.assume-role.session-duration", "900"),
                        (S3Settings s) -> s.client().credentials().assumeRoleDuration(),
                        Duration.ofMinutes(15)),
                spelling(
                        Map.of("fs.s3a.assumed.role.session.duration", "2h"),
                        (S3Settings s) -> s.client().credentials().assumeRoleDuration(),
                        Duration.ofHours(2)),
                spelling(
                        Map.of("s3.client", "crt"),
                        (S3Settings s) -> s.client().client(),
                        ClientSettings.ClientType.CRT),
                spelling(
                        Map.of("s3.client", "SDK"),
                        (S3Settings s) -> s.client().client(),
                        ClientSettings.ClientType.SDK),
                spelling(
                        Map.of("s3.http-client", "crt"),
                        (S3Settings s) -> s.client().httpClient(),
                        HttpClientType.CRT),
                spelling(
                        Map.of("fs.s3a.connection.maximum", "200"),
                        (S3Settings s) -> s.client().maxConnections(),
                        200),
                spelling(
                        Map.of("presto.s3.max-connections", "7"),
                        (S3Settings s) -> s.client().maxConnections(),
                        7),
                spelling(
                        Map.of("s3.connection.timeout", "5 s"),
                        (S3Settings s) -> s.client().connectionTimeout(),
                        Duration.ofSeconds(5)),
                spelling(
                        Map.of("fs.s3a.connection.establish.timeout", "3000"),
                        (S3Settings s) -> s.client().connectionTimeout(),
                        Duration.ofSeconds(3)),
                spelling(
                        Map.of("fs.s3a.connection.timeout", "200s"),
                        (S3Settings s) -> s.client().socketTimeout(),
                        Duration.ofSeconds(200)),
                spelling(
                        Map.of("s3.request.attempt-timeout", "30 s"),
                        (S3Settings s) -> s.client().apiCallAttemptTimeout(),
                        Duration.ofSeconds(30)),
                spelling(
                        Map.of("s3.request.timeout", "1 min"),
                        (S3Settings s) -> s.client().apiCallTimeout(),
                        Duration.ofMinutes(1)),
                spelling(
                        Map.of("fs.s3a.attempts.maximum", "3"),
                        (S3Settings s) -> s.client().maxRetries(),
                        3),
                spelling(
                        Map.of("s3.retry.max-num-retries", "0"),
                        (S3Settings s) -> s.client().maxRetries(),
                        0),
                spelling(
                        Map.of("s3.upload.min.part.size", "5242880"),
                        (S3Settings s) -> s.upload().partSizeBytes(),
                        5L << 20),
                spelling(
                        Map.of("fs.s3a.multipart.size", "64M"),
                        (S3Settings s) -> s.upload().partSizeBytes(),
                        64L << 20),
                spelling(
                        Map.of("presto.s3.multipart.min-part-size", "32MB"),
                        (S3Settings s) -> s.upload().partSizeBytes(),
                        32L << 20),
                spelling(
                        Map.of("fs.s3a.fast.upload.active.blocks", "8"),
                        (S3Settings s) -> s.upload().maxPartsInFlightPerStream(),
                        8),
                spelling(
                        Map.of("s3.upload.max-buffered-size", "256 mb"),
                        (S3Settings s) -> s.upload().maxBufferedBytesPerProcess(),
                        256L << 20),
                spelling(
                        Map.of("s3.conditional-writes.enabled", "false"),
                        (S3Settings s) -> s.upload().conditionalWritesEnabled(),
                        false),
                spelling(
                        Map.of("fs.s3a.checksum.validation", "false"),
                        (S3Settings s) -> s.client().checksumsEnabled(),
                        false),
                spelling(
                        Map.of("s3.chunked-encoding.enabled", "false"),
                        (S3Settings s) -> s.client().chunkedEncodingEnabled(),
                        false),
                spelling(
                        Map.of("fs.s3a.connection.expect.continue", "false"),
                        (S3Settings s) -> s.client().expectContinueEnabled(),
                        false),
                spelling(
                        Map.of("s3.expect-continue.enabled", "false"),
                        (S3Settings s) -> s.client().expectContinueEnabled(),
                        false),
                spelling(
                        Map.of("fs.s3a.readahead.range", "1M"),
                        (S3Settings s) -> s.read().readAheadBytes(),
                        1L << 20),
                spelling(
                        Map.of("s3.read.ahead-parallelism", "1"),
                        (S3Settings s) -> s.read().readAheadParallelism(),
                        1),
                spelling(
                        Map.of("s3.read.direct-get.enabled", "false"),
                        (S3Settings s) -> s.read().directGetsEnabled(),
                        false),
                spelling(
                        Map.of("s3.bulk-copy.max-concurrent", "64"),
                        (S3Settings s) -> s.read().bulkCopyConcurrency(),
                        64),
                spelling(
                        Map.of("s3.sse.type", "AES256"),
                        (S3Settings s) -> s.encryption().sseType(),
                        SseType.SSE_S3),
                spelling(
                        Map.of("presto.s3.sse.type", "KMS"),
                        (S3Settings s) -> s.encryption().sseType(),
                        SseType.SSE_KMS),
                spelling(
                        Map.of(
                                "fs.s3a.server-side-encryption-algorithm", "SSE-KMS",
                                "fs.s3a.server-side-encryption.key", "alias/k"),
                        (S3Settings s) -> s.encryption().sseKmsKeyId(),
                        "alias/k"),
                spelling(
                        Map.of("s3.sse.type", "aws:kms", "fs.s3a.encryption.context", "project=flink"),
                        (S3Settings s) -> s.encryption().sseKmsEncryptionContext(),
                        Base64.getEncoder().encodeToString("{\"project\":\"flink\"}".getBytes(StandardCharsets.UTF_8))),
                spelling(
                        Map.of("s3.sse.type", "sse-c", "s3.sse.c.key", CUSTOMER_KEY),
                        s -> s.encryption().sseCustomerKey().reveal(),
                        CUSTOMER_KEY),
                spelling(
                        Map.of("fs.s3a.encryption.algorithm", "SSE-C", "fs.s3a.encryption.key", CUSTOMER_KEY),
                        s -> s.encryption().sseCustomerKey().reveal(),
                        CUSTOMER_KEY),
                spelling(
                        Map.of("fs.s3a.proxy.host", "proxy.corp", "fs.s3a.proxy.port", "3128"),
                        s -> s.client().proxy().toString(),
                        "proxy.corp:3128"),
                spelling(
                        Map.of("s3.proxy.host", "proxy.corp", "s3.proxy.username", "u", "s3.proxy.password", "p"),
                        s -> s.client().proxy().password().reveal(),
                        "p"),
                spelling(
                        Map.of("s3.proxy.host", "proxy.corp", "s3.endpoint", "http://minio:9000"),
                        s -> s.client().proxy().port(),
                        80),
                spelling(
                        Map.of("s3.proxy.host", "proxy.corp"),
                        s -> s.client().proxy().port(),
                        443),
                spelling(
                        Map.of("s3.proxy.non-proxy-hosts", "minio.local, *.internal|10.0.0.7"),
                        (S3Settings s) -> s.client().nonProxyHosts(),
                        List.of("minio.local", "*.internal", "10.0.0.7")));
    }

    private static <T> Arguments spelling(Map<String, String> config, Function<S3Settings, T> read, T expected) {
        return Arguments.of(config, read, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spellings")
    void everySpellingReachesTheSettings(
            Map<String, String> config, Function<S3Settings, Object> read, Object expected) {
        assertThat(read.apply(settings(config))).isEqualTo(expected);
    }

    @Test
    void anUnsetBufferLimitIsAQuarterOfTheHeapAtMostOneGibAndAtLeastTwoParts() {
        long part = 8L << 20;
        assertThat(S3SettingsFactory.defaultBufferLimit(part, 8L << 30)).isEqualTo(1L << 30);
        assertThat(S3SettingsFactory.defaultBufferLimit(part, 1L << 30)).isEqualTo(256L << 20);
        assertThat(S3SettingsFactory.defaultBufferLimit(part, 32L << 20)).isEqualTo(2 * part);
    }

    @Test
    void anAttemptMustSendOnePartAtOneMibPerSecond() {
        assertThat(S3SettingsFactory.shortestAttemptTimeout(5L << 20)).isEqualTo(Duration.ofSeconds(5));
        assertThat(S3SettingsFactory.shortestAttemptTimeout((8L << 20) + 1)).isEqualTo(Duration.ofSeconds(9));
        assertThat(S3SettingsFactory.shortestAttemptTimeout(5L << 30)).isEqualTo(Duration.ofSeconds(5120));
        assertThat(settings(Map.of("s3.upload.min.part.size", "120 mb"))
                        .upload()
                        .partSizeBytes())
                .as("the default 2 min covers 120 MiB parts")
                .isEqualTo(120L << 20);
        assertThat(settings(Map.of("s3.upload.min.part.size", "1 gb", "s3.request.attempt-timeout", "1024 s"))
                        .client()
                        .apiCallAttemptTimeout())
                .isEqualTo(Duration.ofSeconds(1024));
    }

    @Test
    void grownPartsStayWithinWhatOneAttemptSends() {
        Map<String, String> grown =
                Map.of("s3.upload.max-buffered-size", "4 gb", "s3.upload.max.concurrent.uploads", "7");

        assertThat(S3SettingsFactory.largestPartBytes(settings(with(grown, "s3.request.attempt-timeout", "10 min"))))
                .as("8 MiB parts grow to 4 GiB / (7 + 1)")
                .isEqualTo(512L << 20);
        assertThat(S3SettingsFactory.largestPartBytes(settings(grown)))
                .as("the default attempt timeout of 2 min sends 120 MiB at 1 MiB/s")
                .isEqualTo(120L << 20);
        assertThat(S3SettingsFactory.largestPartBytes(settings(with(grown, "s3.request.attempt-timeout", "8 s"))))
                .as("an attempt of 8 s keeps 8 MiB parts from growing")
                .isEqualTo(8L << 20);
        assertThat(S3SettingsFactory.largestPartBytes(settings(with(grown, "s3.client", "crt"))))
                .as("the Transfer Manager sends parts of the configured size")
                .isEqualTo(UploadSettings.DEFAULT_PART_SIZE);
        assertThat(S3SettingsFactory.maxGrownPartBytes(Duration.ofMillis(1500)))
                .isEqualTo(UploadSettings.MIN_PART_SIZE);
        assertThat(S3SettingsFactory.maxGrownPartBytes(Duration.ofDays(1)))
                .isEqualTo(UploadSettings.MAX_BUFFERED_PART_SIZE);
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> all = new HashMap<>(base);
        all.put(key, value);
        return all;
    }

    @Test
    void theOwnKeyWinsOverAFallbackSpelling() {
        S3Settings s = settings(Map.of("s3.connection.max", "5", "fs.s3a.connection.maximum", "500"));

        assertThat(s.client().maxConnections()).isEqualTo(5);
    }

    @Test
    void entropyAndBulkCopyOptionsReachTheFileSystemSettings() {
        S3FileSystemSettings fs = S3FileSystemSettings.fromConfiguration(Configuration.fromMap(
                Map.of("s3.entropy.key", "_entropy_", "s3.entropy.length", "6", "s3.bulk-copy.enabled", "false")));

        assertThat(fs.entropyKey()).isEqualTo("_entropy_");
        assertThat(fs.entropyLength()).isEqualTo(6);
        assertThat(fs.bulkCopyEnabled()).isFalse();
    }

    @Test
    void directoryMarkersAreOnUnlessSwitchedOff() {
        assertThat(S3FileSystemSettings.fromConfiguration(new Configuration()).directoryMarkers())
                .isTrue();
        assertThat(S3FileSystemSettings.fromConfiguration(
                                Configuration.fromMap(Map.of("s3.directory-markers.enabled", "false")))
                        .directoryMarkers())
                .isFalse();
    }

    @Test
    void theMetricsLogIntervalReachesTheFileSystemSettingsAndZeroIsAllowed() {
        assertThat(S3FileSystemSettings.fromConfiguration(new Configuration()).metricsLogInterval())
                .isEqualTo(Duration.ofMinutes(5));
        assertThat(S3FileSystemSettings.fromConfiguration(
                                Configuration.fromMap(Map.of("s3.metrics.log-interval", "30 s")))
                        .metricsLogInterval())
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(S3FileSystemSettings.fromConfiguration(Configuration.fromMap(Map.of("s3.metrics.log-interval", "0")))
                        .metricsLogInterval())
                .isZero();
    }

    /** The shared table of bad values: the configuration, the key and value to name, and what is allowed. */
    static Stream<Arguments> badValues() {
        return BadValues.rows().stream().map(row -> Arguments.of(row.config(), row.key(), row.value(), row.allowed()));
    }

    @ParameterizedTest(name = "{1}={2}")
    @MethodSource("badValues")
    void aBadValueFailsNamingTheKeyTheValueAndWhatIsAllowed(
            Map<String, String> config, String key, String value, String allowed) {
        assertThatThrownBy(() -> S3FileSystemSettings.fromConfiguration(Configuration.fromMap(config)))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'" + key + "'")
                .hasMessageContaining("'" + value + "'")
                .hasMessageContaining(allowed);
    }

    static Stream<Arguments> badCombinations() {
        return Stream.of(
                Arguments.of(Map.of("fs.s3a.access.key", "AKIA"), "'fs.s3a.access.key' is set but no secret key"),
                Arguments.of(Map.of("s3.secret-key", "hunter2"), "'s3.secret-key' is set but no access key"),
                Arguments.of(Map.of("s3.session-token", "tok"), "'s3.session-token' is set without"),
                Arguments.of(Map.of("s3.sse.kms.key-id", "alias/k"), "'s3.sse.kms.key-id' is set but the SSE type"),
                Arguments.of(
                        Map.of("s3.sse.type", "sse-s3", "fs.s3a.encryption.context", "a=b"),
                        "'fs.s3a.encryption.context' is set but the SSE type ('s3.sse.type') is SSE_S3"),
                Arguments.of(Map.of("s3.sse.type", "sse-c"), "sse-c needs the customer key in 's3.sse.c.key'"),
                Arguments.of(Map.of("s3.sse.c.key", "hunter2"), "'s3.sse.c.key' is set but the SSE type"),
                Arguments.of(
                        Map.of("s3.proxy.port", "3128"), "'s3.proxy.port' is set but no proxy host ('s3.proxy.host')"),
                Arguments.of(
                        Map.of("s3.proxy.host", "proxy", "fs.s3a.proxy.password", "hunter2"),
                        "'fs.s3a.proxy.password' is set but no proxy user name ('s3.proxy.username')"),
                Arguments.of(
                        Map.of("s3.upload.min.part.size", "64 mb", "s3.upload.max-buffered-size", "32 mb"),
                        "'s3.upload.max-buffered-size' (33554432 bytes) is smaller than one part"),
                Arguments.of(
                        Map.of("s3.upload.min.part.size", "256 mb", "s3.request.attempt-timeout", "2 min"),
                        "'s3.request.attempt-timeout' (2 min) is too short to send one part of"
                                + " 's3.upload.min.part.size' (256 MiB) at 1 MiB/s"),
                Arguments.of(
                        Map.of(
                                "fs.s3a.multipart.size",
                                "64M",
                                "s3.upload.max-buffered-size",
                                "576 mb",
                                "s3.request.attempt-timeout",
                                "30 s"),
                        "at least 64 s for this part size"),
                Arguments.of(
                        Map.of("s3.client", "crt", "s3.requester-pays.enabled", "true"),
                        "cannot be used with 's3.client: crt'"),
                Arguments.of(
                        Map.of("s3.client", "crt", "s3.storage-class", "STANDARD_IA"),
                        "'s3.storage-class', 's3.requester-pays.enabled' and 's3.accesspoint.arn' (also per bucket)"),
                Arguments.of(
                        Map.of("s3.client", "crt", "fs.s3a.connection.expect.continue", "false"),
                        "'fs.s3a.connection.expect.continue: false' cannot be used with 's3.client: crt'"));
    }

    @ParameterizedTest(name = "{0} {1}: uniform parts {2}")
    @CsvSource({
        "https://0123456789abcdef.r2.cloudflarestorage.com, , true",
        "https://0123456789abcdef.eu.R2.cloudflarestorage.com, , true",
        "https://0123456789abcdef.r2.cloudflarestorage.com, false, false",
        "http://127.0.0.1:9000, , false",
        "http://127.0.0.1:9000, true, true",
        ", , false"
    })
    void uniformPartsAreOnForCloudflareR2UnlessConfigured(String endpoint, String configured, boolean uniform) {
        Map<String, String> config = new HashMap<>();
        if (endpoint != null) {
            config.put("s3.endpoint", endpoint);
        }
        if (configured != null) {
            config.put("s3.upload.uniform-parts", configured);
        }
        assertThat(S3FileSystemSettings.fromConfiguration(Configuration.fromMap(config))
                        .s3()
                        .upload()
                        .uniformParts())
                .isEqualTo(uniform);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badCombinations")
    void aBadCombinationFailsNamingTheKeys(Map<String, String> config, String message) {
        assertThatThrownBy(() -> S3FileSystemSettings.fromConfiguration(Configuration.fromMap(config)))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining(message)
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void aCaFileIsRejectedWithTheCrtClientNamingBothKeys(@TempDir Path dir) throws IOException {
        Path ca = TestCertificates.create(dir).caPem();
        assertThatThrownBy(() -> S3FileSystemSettings.fromConfiguration(
                        Configuration.fromMap(Map.of("s3.client", "crt", "s3.ssl.ca-file", ca.toString()))))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'s3.ssl.ca-file' (" + ca + ") cannot be used with 's3.client: crt'")
                .hasMessageContaining("Allowed: 's3.client: sdk' with the CA file, or no CA file");
        assertThat(S3FileSystemSettings.fromConfiguration(
                                Configuration.fromMap(Map.of("s3.client", "sdk", "s3.ssl.ca-file", ca.toString())))
                        .s3()
                        .client()
                        .sslCaFile())
                .isEqualTo(ca);
    }

    @Test
    void aBadCustomerKeyIsReportedWithoutItsValue() {
        Map<String, String> config = Map.of("s3.sse.type", "sse-c", "s3.sse.c.key", "hunter2-not-a-key");

        assertThatThrownBy(() -> S3FileSystemSettings.fromConfiguration(Configuration.fromMap(config)))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'s3.sse.c.key'")
                .hasMessageContaining("256-bit")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void secretsNeverShowInTheSettingsText() {
        S3FileSystemSettings fs = S3FileSystemSettings.fromConfiguration(Configuration.fromMap(Map.of(
                "s3.access-key", "AKIAEXAMPLEKEY",
                "s3.secret-key", "hunter2-secret",
                "s3.session-token", "hunter2-token",
                "s3.sse.type", "sse-c",
                "s3.sse.c.key", CUSTOMER_KEY,
                "s3.proxy.host", "proxy.corp",
                "s3.proxy.username", "flink",
                "s3.proxy.password", "hunter2-proxy")));

        assertThat(fs.toString()).contains("flink:******@proxy.corp:443");
        assertThat(fs.toString())
                .doesNotContain("hunter2")
                .doesNotContain(CUSTOMER_KEY)
                .doesNotContain("AKIAEXAMPLEKEY");
    }

    private static S3Settings settings(Map<String, String> config) {
        return S3FileSystemSettings.fromConfiguration(Configuration.fromMap(config))
                .s3();
    }
}
