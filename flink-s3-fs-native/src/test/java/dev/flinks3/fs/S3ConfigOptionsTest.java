package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.options.Option;
import dev.flinks3.transfer.options.S3Options;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.description.HtmlFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Pins every option's key, fallback keys (in lookup order), default and description. */
@Timeout(30)
class S3ConfigOptionsTest {

    static Stream<Arguments> options() {
        return Stream.of(
                row(
                        S3ConfigOptions.ENDPOINT,
                        "s3.endpoint",
                        null,
                        "s3a.endpoint",
                        "fs.s3a.endpoint",
                        "presto.s3.endpoint"),
                row(
                        S3ConfigOptions.SSL_ENABLED,
                        "s3.ssl.enabled",
                        true,
                        "presto.s3.ssl.enabled",
                        "s3.connection.ssl.enabled",
                        "s3a.connection.ssl.enabled",
                        "fs.s3a.connection.ssl.enabled"),
                row(
                        S3ConfigOptions.REGION,
                        "s3.region",
                        null,
                        "s3.endpoint.region",
                        "s3a.endpoint.region",
                        "fs.s3a.endpoint.region"),
                row(
                        S3ConfigOptions.PATH_STYLE_ACCESS,
                        "s3.path-style-access",
                        false,
                        "s3.path.style.access",
                        "s3a.path.style.access",
                        "fs.s3a.path.style.access",
                        "presto.s3.path-style-access",
                        "presto.s3.path.style.access"),
                row(
                        S3ConfigOptions.ACCESS_KEY,
                        "s3.access-key",
                        null,
                        "s3.access.key",
                        "s3a.access.key",
                        "fs.s3a.access.key",
                        "presto.s3.access-key",
                        "presto.s3.access.key"),
                row(
                        S3ConfigOptions.SECRET_KEY,
                        "s3.secret-key",
                        null,
                        "s3.secret.key",
                        "s3a.secret.key",
                        "fs.s3a.secret.key",
                        "presto.s3.secret-key",
                        "presto.s3.secret.key"),
                row(
                        S3ConfigOptions.SESSION_TOKEN,
                        "s3.session-token",
                        null,
                        "s3.session.token",
                        "s3a.session.token",
                        "fs.s3a.session.token"),
                row(
                        S3ConfigOptions.CREDENTIALS_PROVIDER,
                        "fs.s3.aws.credentials.provider",
                        null,
                        "s3.aws.credentials.provider",
                        "s3a.aws.credentials.provider",
                        "fs.s3a.aws.credentials.provider",
                        "presto.s3.credentials-provider",
                        "s3.credentials-provider"),
                row(
                        S3ConfigOptions.ASSUME_ROLE_ARN,
                        "s3.assume-role.arn",
                        null,
                        "s3.assumed.role.arn",
                        "s3a.assumed.role.arn",
                        "fs.s3a.assumed.role.arn",
                        "presto.s3.iam-role",
                        "s3.iam-role"),
                row(
                        S3ConfigOptions.ASSUME_ROLE_EXTERNAL_ID,
                        "s3.assume-role.external-id",
                        null,
                        "presto.s3.external-id",
                        "s3.external-id"),
                row(
                        S3ConfigOptions.ASSUME_ROLE_SESSION_NAME,
                        "s3.assume-role.session-name",
                        "flink-s3-session",
                        "s3.assumed.role.session.name",
                        "s3a.assumed.role.session.name",
                        "fs.s3a.assumed.role.session.name"),
                row(
                        S3ConfigOptions.ASSUME_ROLE_SESSION_DURATION,
                        "s3.assume-role.session-duration",
                        "3600",
                        "s3.assumed.role.session.duration",
                        "s3a.assumed.role.session.duration",
                        "fs.s3a.assumed.role.session.duration"),
                row(S3ConfigOptions.S3_CLIENT, "s3.client", ClientSettings.ClientType.SDK),
                row(S3ConfigOptions.HTTP_CLIENT, "s3.http-client", ClientSettings.HttpClientType.CRT),
                row(
                        S3ConfigOptions.MAX_CONNECTIONS,
                        "s3.connection.max",
                        96,
                        "s3.async-client.max-concurrency",
                        "s3.connection.maximum",
                        "s3a.connection.maximum",
                        "fs.s3a.connection.maximum",
                        "presto.s3.max-connections",
                        "s3.max-connections"),
                row(
                        S3ConfigOptions.CONNECTION_TIMEOUT,
                        "s3.connection.timeout",
                        Duration.ofSeconds(10),
                        "s3.connection.establish.timeout",
                        "s3a.connection.establish.timeout",
                        "fs.s3a.connection.establish.timeout",
                        "presto.s3.connect-timeout",
                        "s3.connect-timeout"),
                row(
                        S3ConfigOptions.SOCKET_TIMEOUT,
                        "s3.socket.timeout",
                        Duration.ofSeconds(60),
                        "s3a.connection.timeout",
                        "fs.s3a.connection.timeout",
                        "presto.s3.socket-timeout",
                        "s3.socket-timeout"),
                row(
                        S3ConfigOptions.CONNECTION_MAX_IDLE_TIME,
                        "s3.connection.max-idle-time",
                        Duration.ofSeconds(60),
                        "s3.connection.idle.time",
                        "s3a.connection.idle.time",
                        "fs.s3a.connection.idle.time"),
                row(S3ConfigOptions.REQUEST_ATTEMPT_TIMEOUT, "s3.request.attempt-timeout", Duration.ofMinutes(2)),
                row(S3ConfigOptions.REQUEST_TIMEOUT, "s3.request.timeout", Duration.ofMinutes(10)),
                row(
                        S3ConfigOptions.MAX_RETRIES,
                        "s3.retry.max-num-retries",
                        10,
                        "s3.attempts.maximum",
                        "s3a.attempts.maximum",
                        "fs.s3a.attempts.maximum",
                        "presto.s3.max-error-retries",
                        "s3.max-error-retries"),
                row(S3ConfigOptions.CLOSE_TIMEOUT, "s3.close.timeout", Duration.ofSeconds(60)),
                row(S3ConfigOptions.CLIENT_CLOSE_TIMEOUT, "s3.client.close.timeout", Duration.ofSeconds(30)),
                row(S3ConfigOptions.ASYNC_ENABLED, "s3.async.enabled", true),
                row(
                        S3ConfigOptions.PART_SIZE,
                        "s3.upload.min.part.size",
                        MemorySize.ofMebiBytes(8),
                        "s3.upload.part.size",
                        "s3.multipart.size",
                        "s3a.multipart.size",
                        "fs.s3a.multipart.size",
                        "presto.s3.multipart.min-part-size",
                        "s3.multipart.min-part-size"),
                row(
                        S3ConfigOptions.MAX_PARTS_IN_FLIGHT,
                        "s3.upload.max.concurrent.uploads",
                        8,
                        "s3.fast.upload.active.blocks",
                        "s3a.fast.upload.active.blocks",
                        "fs.s3a.fast.upload.active.blocks"),
                row(S3ConfigOptions.MAX_BUFFERED_SIZE, "s3.upload.max-buffered-size", MemorySize.ofMebiBytes(1024)),
                row(S3ConfigOptions.UNIFORM_PARTS, "s3.upload.uniform-parts", null),
                row(S3ConfigOptions.CONDITIONAL_WRITES_ENABLED, "s3.conditional-writes.enabled", true),
                row(
                        S3ConfigOptions.CHECKSUM_VALIDATION_ENABLED,
                        "s3.checksum-validation.enabled",
                        true,
                        "s3.checksum.validation",
                        "s3a.checksum.validation",
                        "fs.s3a.checksum.validation"),
                row(S3ConfigOptions.CHUNKED_ENCODING_ENABLED, "s3.chunked-encoding.enabled", true),
                row(
                        S3ConfigOptions.EXPECT_CONTINUE_ENABLED,
                        "s3.expect-continue.enabled",
                        true,
                        "s3.connection.expect.continue",
                        "s3a.connection.expect.continue",
                        "fs.s3a.connection.expect.continue"),
                row(
                        S3ConfigOptions.READ_AHEAD_SIZE,
                        "s3.read.ahead-size",
                        MemorySize.ofMebiBytes(8),
                        "s3.readahead.range",
                        "s3a.readahead.range",
                        "fs.s3a.readahead.range"),
                row(S3ConfigOptions.READ_AHEAD_PARALLELISM, "s3.read.ahead-parallelism", 8),
                row(S3ConfigOptions.READ_BUFFER_SIZE, "s3.read.buffer.size", 256 * 1024),
                row(S3ConfigOptions.DIRECT_GETS_ENABLED, "s3.read.direct-get.enabled", true),
                row(S3ConfigOptions.BULK_COPY_ENABLED, "s3.bulk-copy.enabled", true),
                row(S3ConfigOptions.DIRECTORY_MARKERS_ENABLED, "s3.directory-markers.enabled", true),
                row(S3ConfigOptions.BULK_COPY_MAX_CONCURRENT, "s3.bulk-copy.max-concurrent", 16),
                row(S3ConfigOptions.BULK_COPY_RANGE_SIZE, "s3.bulk-copy.range-size", MemorySize.ofMebiBytes(8)),
                row(
                        S3ConfigOptions.SSE_TYPE,
                        "s3.sse.type",
                        "none",
                        "s3.encryption.algorithm",
                        "s3a.encryption.algorithm",
                        "fs.s3a.encryption.algorithm",
                        "s3.server-side-encryption-algorithm",
                        "s3a.server-side-encryption-algorithm",
                        "fs.s3a.server-side-encryption-algorithm",
                        "presto.s3.sse.type"),
                row(S3ConfigOptions.SSE_KMS_CHECK_ON_CREATE, "s3.sse.kms.check-on-create", false),
                row(
                        S3ConfigOptions.SSE_KMS_KEY_ID,
                        "s3.sse.kms.key-id",
                        null,
                        "s3.encryption.key",
                        "s3a.encryption.key",
                        "fs.s3a.encryption.key",
                        "s3.server-side-encryption.key",
                        "s3a.server-side-encryption.key",
                        "fs.s3a.server-side-encryption.key",
                        "presto.s3.sse.kms-key-id",
                        "s3.sse.kms-key-id"),
                row(
                        S3ConfigOptions.SSE_KMS_ENCRYPTION_CONTEXT,
                        "s3.sse.kms.encryption-context",
                        null,
                        "s3.encryption.context",
                        "s3a.encryption.context",
                        "fs.s3a.encryption.context"),
                row(S3ConfigOptions.SSE_KMS_BUCKET_KEY, "s3.sse.kms.bucket-key.enabled", false),
                row(S3ConfigOptions.SSE_C_KEY, "s3.sse.c.key", null),
                row(S3ConfigOptions.SSL_CA_FILE, "s3.ssl.ca-file", null),
                row(S3ConfigOptions.PROXY_HOST, "s3.proxy.host", null, "s3a.proxy.host", "fs.s3a.proxy.host"),
                row(S3ConfigOptions.PROXY_PORT, "s3.proxy.port", null, "s3a.proxy.port", "fs.s3a.proxy.port"),
                row(
                        S3ConfigOptions.PROXY_USERNAME,
                        "s3.proxy.username",
                        null,
                        "s3a.proxy.username",
                        "fs.s3a.proxy.username"),
                row(
                        S3ConfigOptions.PROXY_PASSWORD,
                        "s3.proxy.password",
                        null,
                        "s3a.proxy.password",
                        "fs.s3a.proxy.password"),
                row(S3ConfigOptions.PROXY_NON_PROXY_HOSTS, "s3.proxy.non-proxy-hosts", null),
                row(
                        S3ConfigOptions.STORAGE_CLASS,
                        "s3.storage-class",
                        null,
                        "s3.create.storage.class",
                        "s3a.create.storage.class",
                        "fs.s3a.create.storage.class",
                        "presto.s3.storage-class"),
                row(
                        S3ConfigOptions.REQUESTER_PAYS_ENABLED,
                        "s3.requester-pays.enabled",
                        false,
                        "s3.requester.pays.enabled",
                        "s3a.requester.pays.enabled",
                        "fs.s3a.requester.pays.enabled"),
                row(
                        S3ConfigOptions.ACCESS_POINT_ARN,
                        "s3.accesspoint.arn",
                        null,
                        "s3a.accesspoint.arn",
                        "fs.s3a.accesspoint.arn"),
                row(S3ConfigOptions.MULTIPART_PURGE_AGE, "s3.multipart.purge.age", Duration.ZERO),
                row(S3ConfigOptions.ENTROPY_KEY, "s3.entropy.key", null),
                row(S3ConfigOptions.ENTROPY_LENGTH, "s3.entropy.length", 4),
                row(S3ConfigOptions.METRICS_LOG_INTERVAL, "s3.metrics.log-interval", Duration.ofMinutes(5)));
    }

    private static Arguments row(ConfigOption<?> option, String key, Object defaultValue, String... fallbacks) {
        return Arguments.of(option, key, defaultValue, List.of(fallbacks));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("options")
    void pinsKeyFallbacksDefaultAndDescription(
            ConfigOption<?> option, String key, Object defaultValue, List<String> fallbacks) {
        assertThat(option.key()).isEqualTo(key);
        assertThat(fallbackKeys(option)).containsExactlyElementsOf(fallbacks);
        assertThat(option.fallbackKeys()).noneMatch(FallbackKey::isDeprecated);
        if (defaultValue == null) {
            assertThat(option.hasDefaultValue()).isFalse();
        } else {
            assertThat(option.defaultValue()).isEqualTo(defaultValue);
        }
        assertThat(new HtmlFormatter().format(option.description())).hasSizeGreaterThan(20);
    }

    @Test
    @Timeout(10)
    void everyNumericOptionDeclaresItsRangeAndItsDefaultIsInside() {
        for (ConfigOption<?> option : S3ConfigOptions.all()) {
            Object fallback = option.defaultValue();
            Class<?> type = fallback == null ? null : fallback.getClass();
            if (type != Integer.class && type != MemorySize.class) {
                continue;
            }
            S3ConfigOptions.Range range = S3ConfigOptions.range(option);
            long value = fallback instanceof MemorySize ? ((MemorySize) fallback).getBytes() : (Integer) fallback;
            assertThat(value).as(option.key()).isBetween(range.min, range.max);
        }
        assertThat(S3ConfigOptions.range(S3ConfigOptions.PROXY_PORT).max).isEqualTo(65_535);
    }

    @Test
    void theTableCoversEveryOption() {
        List<Object> pinned = options().map(a -> a.get()[0]).toList();
        assertThat(S3ConfigOptions.all())
                .containsExactlyInAnyOrderElementsOf(
                        pinned.stream().map(o -> (ConfigOption<?>) o).toList());
    }

    @Test
    void everyOptionConstantRegistersItselfOnceAsItIsDeclared() throws IllegalAccessException {
        List<ConfigOption<?>> constants = new ArrayList<>();
        for (Field field : S3ConfigOptions.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == ConfigOption.class) {
                constants.add((ConfigOption<?>) field.get(null));
            }
        }
        assertThat(S3ConfigOptions.all()).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(constants);
        assertThat(S3ConfigOptions.all().get(0)).isSameAs(S3ConfigOptions.ENDPOINT);
        assertThat(S3ConfigOptions.all().get(S3ConfigOptions.all().size() - 1))
                .isSameAs(S3ConfigOptions.METRICS_LOG_INTERVAL);
    }

    /** A declaration without its Flink option would be read by nobody: every one of both catalogs has one. */
    @Test
    void everyDeclaredOptionIsAFlinkOption() {
        List<Option<?>> declared = new ArrayList<>(S3Options.all());
        declared.addAll(FileSystemOptions.all());

        assertThat(S3ConfigOptions.all().stream()
                        .map(S3ConfigOptions::declaration)
                        .toList())
                .containsExactlyInAnyOrderElementsOf(declared);
    }

    @Test
    void noSpellingBelongsToTwoOptions() {
        Map<String, String> owner = new HashMap<>();
        List<String> clashes = new ArrayList<>();
        for (ConfigOption<?> option : S3ConfigOptions.all()) {
            List<String> spellings = new ArrayList<>(fallbackKeys(option));
            spellings.add(option.key());
            for (String spelling : spellings) {
                String previous = owner.put(spelling, option.key());
                if (previous != null) {
                    clashes.add(spelling + " in " + previous + " and " + option.key());
                }
            }
        }
        assertThat(clashes).isEmpty();
    }

    @Test
    void everyKeyOfFlinksNativePlugin230IsAccepted() {
        // The keys NativeS3FileSystemFactory of flink-s3-fs-native 2.3.0 declares (read from its jar).
        List<String> upstream = List.of(
                "s3.access-key",
                "s3.access.key",
                "s3.secret-key",
                "s3.secret.key",
                "s3.region",
                "s3.endpoint",
                "s3.path-style-access",
                "s3.path.style.access",
                "s3.chunked-encoding.enabled",
                "s3.checksum-validation.enabled",
                "s3.upload.min.part.size",
                "s3.upload.max.concurrent.uploads",
                "s3.entropy.key",
                "s3.entropy.length",
                "s3.bulk-copy.enabled",
                "s3.connection.max",
                "s3.bulk-copy.max-concurrent",
                "s3.async.enabled",
                "s3.read.buffer.size",
                "s3.sse.type",
                "s3.sse.kms.key-id",
                "s3.assume-role.arn",
                "s3.assume-role.external-id",
                "s3.assume-role.session-name",
                "s3.assume-role.session-duration",
                "s3.retry.max-num-retries",
                "s3.connection.timeout",
                "s3.socket.timeout",
                "s3.connection.max-idle-time",
                "s3.close.timeout",
                "s3.client.close.timeout",
                "fs.s3.aws.credentials.provider");
        List<String> ours = new ArrayList<>();
        for (ConfigOption<?> option : S3ConfigOptions.all()) {
            ours.add(option.key());
            ours.addAll(fallbackKeys(option));
        }
        assertThat(ours).containsAll(upstream);
    }

    private static List<String> fallbackKeys(ConfigOption<?> option) {
        List<String> keys = new ArrayList<>();
        option.fallbackKeys().forEach(k -> keys.add(k.getKey()));
        return keys;
    }
}
