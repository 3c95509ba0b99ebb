package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.ClientSettings.ClientType;
import dev.flinks3.transfer.ClientSettings.HttpClientType;
import dev.flinks3.transfer.S3Settings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The options declared with {@code S3ConfigOptions.bound}: each reaches the one setting it is declared for,
 * read through the getter the code uses, so an option declared for another setting of the same type (the
 * socket timeout's key on the connect timeout's setting) fails here; and every bound option has a row.
 */
@Timeout(30)
class SettingBindersTest {

    /** Each row: the key, a value other than the default, the setting it must reach and its expected value. */
    static Stream<Arguments> boundOptions() {
        return Stream.of(
                row("s3.path-style-access", "true", s -> s.client().pathStyleAccess(), true),
                row("s3.client", "crt", s -> s.client().client(), ClientType.CRT),
                row("s3.http-client", "netty", s -> s.client().httpClient(), HttpClientType.NETTY),
                row("s3.connection.max", "7", s -> s.client().maxConnections(), 7),
                row("s3.connection.timeout", "11 s", s -> s.client().connectionTimeout(), Duration.ofSeconds(11)),
                row("s3.socket.timeout", "61 s", s -> s.client().socketTimeout(), Duration.ofSeconds(61)),
                row(
                        "s3.connection.max-idle-time",
                        "62 s",
                        s -> s.client().connectionMaxIdleTime(),
                        Duration.ofSeconds(62)),
                row(
                        "s3.request.attempt-timeout",
                        "63 s",
                        s -> s.client().apiCallAttemptTimeout(),
                        Duration.ofSeconds(63)),
                row("s3.request.timeout", "11 min", s -> s.client().apiCallTimeout(), Duration.ofMinutes(11)),
                row("s3.retry.max-num-retries", "3", s -> s.client().maxRetries(), 3),
                row("s3.checksum-validation.enabled", "false", s -> s.client().checksumsEnabled(), false),
                row("s3.chunked-encoding.enabled", "false", s -> s.client().chunkedEncodingEnabled(), false),
                row("s3.expect-continue.enabled", "false", s -> s.client().expectContinueEnabled(), false),
                row("s3.requester-pays.enabled", "true", s -> s.client().requesterPays(), true),
                row("s3.upload.max.concurrent.uploads", "3", s -> s.upload().maxPartsInFlightPerStream(), 3),
                row("s3.conditional-writes.enabled", "false", s -> s.upload().conditionalWritesEnabled(), false),
                row("s3.read.ahead-size", "1 mb", s -> s.read().readAheadBytes(), 1L << 20),
                row("s3.read.ahead-parallelism", "3", s -> s.read().readAheadParallelism(), 3),
                row("s3.bulk-copy.max-concurrent", "5", s -> s.read().bulkCopyConcurrency(), 5),
                row("s3.bulk-copy.range-size", "2 mb", s -> s.read().bulkCopyRangeBytes(), 2L << 20),
                row("s3.read.direct-get.enabled", "false", s -> s.read().directGetsEnabled(), false),
                row(
                        "s3.sse.kms.bucket-key.enabled",
                        "true",
                        Map.of("s3.sse.type", "sse-kms"),
                        s -> s.encryption().sseKmsBucketKey(),
                        true));
    }

    private static Arguments row(String key, String value, Function<S3Settings, Object> setting, Object expected) {
        return row(key, value, Map.of(), setting, expected);
    }

    /** A row of an option that needs {@code with} set too; the default is read with {@code with} alone. */
    private static Arguments row(
            String key, String value, Map<String, String> with, Function<S3Settings, Object> setting, Object expected) {
        return Arguments.of(key, value, setting, expected, with);
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("boundOptions")
    void aBoundOptionReachesItsSettingAndOnlyWhenSet(
            String key, String value, Function<S3Settings, Object> setting, Object expected, Map<String, String> with) {
        Map<String, String> options = new HashMap<>(with);
        options.put(key, value);
        S3Settings configured = S3SettingsFactory.create(Configuration.fromMap(options));
        S3Settings defaults = S3SettingsFactory.create(Configuration.fromMap(with));

        assertThat(setting.apply(configured)).isEqualTo(expected);
        assertThat(setting.apply(defaults)).as("the default").isNotEqualTo(expected);
    }

    @Test
    void everyBoundOptionHasARow() {
        assertThat(boundOptions().map(a -> (String) a.get()[0]))
                .containsExactlyInAnyOrderElementsOf(
                        S3ConfigOptions.bound().stream().map(ConfigOption::key).collect(Collectors.toList()));
    }
}
