package dev.flinks3.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.fs.S3ConfigOptions;
import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.testserver.EmbeddedS3Server;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 6, bad input: every configuration option with a bad value, and paths that are no S3 location,
 * fail with a message naming the key and the value (or the path) and what is allowed, through Flink's
 * factory, before a single request reaches the server. {@code S3SettingsFactoryTest} in the
 * filesystem module checks more values per option; this table adds the end-to-end view and the
 * options it lacked, and a check that no option is left out.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {

    private static final String SECRET_VALUE = "hunter2-not-shown";
    private static final String LONG_KEY = "k".repeat(1025);
    private static final String LONG_UTF8_KEY = "\u00e9".repeat(513);

    private final AtomicInteger tried = new AtomicInteger();
    private EmbeddedS3Server server;

    @BeforeAll
    void start() {
        server = SharedS3ProxyTarget.server();
    }

    @AfterAll
    void report() {
        System.out.println("Bad inputs tried: " + tried.get());
    }

    /** One row per option (the key as a user writes it, a bad value, what the message must say). */
    static Stream<Arguments> badOptions() {
        return Stream.of(
                bad("s3.endpoint", "ftp://host", "http:// or https:// URL"),
                bad("s3.ssl.enabled", "maybe", "true or false"),
                bad("s3.region", "us east 1", "region name"),
                bad("s3.path-style-access", "yes", "true or false"),
                bad(Map.of("s3.access-key", "AKIAEXAMPLE"), "s3.access-key", null, "secret key"),
                bad(Map.of("s3.secret-key", SECRET_VALUE), "s3.secret-key", null, "access key"),
                bad(Map.of("s3.session-token", SECRET_VALUE), "s3.session-token", null, "access"),
                bad("fs.s3.aws.credentials.provider", "com.example.NoSuchProvider", "not found"),
                bad("s3.assume-role.arn", "flink-role", "IAM role ARN"),
                bad(
                        Map.of(
                                "s3.assume-role.arn",
                                "arn:aws:iam::123456789012:role/flink",
                                "s3.assume-role.external-id",
                                "x"),
                        "s3.assume-role.external-id",
                        "x",
                        "2 to 1224"),
                bad("s3.assume-role.session-name", "flink session!", "2 to 64"),
                bad("s3.assume-role.session-duration", "60", "15 min to 12 h"),
                bad("s3.client", "transfer-manager", "one of sdk, crt"),
                bad("s3.http-client", "okhttp", "one of crt, netty"),
                bad("s3.connection.max", "0", "at least 1"),
                bad("s3.connection.timeout", "0 s", "positive duration"),
                bad("s3.socket.timeout", "-5 s", "positive duration"),
                bad("s3.connection.max-idle-time", "later", "positive duration"),
                bad("s3.request.attempt-timeout", "0", "positive duration"),
                bad(
                        Map.of("s3.upload.min.part.size", "256 mb", "s3.request.attempt-timeout", "2 min"),
                        "s3.request.attempt-timeout",
                        "2 min",
                        "one part of 's3.upload.min.part.size' (256 MiB)"),
                bad("s3.request.timeout", "1 lightyear", "positive duration"),
                bad("s3.retry.max-num-retries", "-1", "from 0 to 100"),
                bad("s3.close.timeout", "0 ms", "positive duration"),
                bad("s3.client.close.timeout", "x", "positive duration"),
                bad("s3.async.enabled", "sometimes", "true or false"),
                bad("s3.upload.min.part.size", "1048576", "from 5 MiB to 1 GiB"),
                bad("s3.upload.max.concurrent.uploads", "0", "from 1 to 10000"),
                bad("s3.upload.max-buffered-size", "1 mb", "at least 5 MiB"),
                bad("s3.conditional-writes.enabled", "on", "true or false"),
                bad("s3.checksum-validation.enabled", "off", "true or false"),
                bad("s3.chunked-encoding.enabled", "no", "true or false"),
                bad("s3.expect-continue.enabled", "maybe", "true or false"),
                bad("s3.upload.uniform-parts", "yes", "true or false"),
                bad("s3.sse.kms.check-on-create", "1", "true or false"),
                bad("s3.read.ahead-size", "1 kb", "from 64 KiB to 1 GiB"),
                bad("s3.read.ahead-parallelism", "0", "from 1 to 64"),
                bad("s3.read.buffer.size", "1024", "from 65536 to 4194304"),
                bad("s3.bulk-copy.enabled", "y", "true or false"),
                bad("s3.read.direct-get.enabled", "maybe", "true or false"),
                bad("s3.bulk-copy.max-concurrent", "0", "from 1 to 1024"),
                bad("s3.bulk-copy.range-size", "1 kb", "from 64 KiB to 1 GiB"),
                bad("s3.sse.type", "rot13", "sse-kms"),
                bad(Map.of("s3.sse.kms.key-id", "alias/flink"), "s3.sse.kms.key-id", null, "not sse-kms"),
                bad(
                        Map.of("s3.sse.type", "sse-kms", "s3.sse.kms.encryption-context", "no pairs here"),
                        "s3.sse.kms.encryption-context",
                        "no pairs here",
                        "key=value pairs"),
                bad(Map.of("s3.sse.type", "sse-c", "s3.sse.c.key", SECRET_VALUE), "s3.sse.c.key", null, "256-bit"),
                bad("s3.ssl.ca-file", "/no/such/ca.pem", "readable file of PEM certificates"),
                bad("s3.proxy.host", "http://proxy:3128", "host name or IP address without scheme or port"),
                bad(
                        Map.of("s3.proxy.host", "proxy", "s3.proxy.port", "70000"),
                        "s3.proxy.port",
                        "70000",
                        "from 1 to 65535"),
                bad(Map.of("s3.proxy.username", "flink"), "s3.proxy.username", null, "no proxy host"),
                bad(
                        Map.of("s3.proxy.host", "proxy", "s3.proxy.password", SECRET_VALUE),
                        "s3.proxy.password",
                        null,
                        "no proxy user name"),
                bad("s3.proxy.non-proxy-hosts", "10.*", "'*.domain' or '*'"),
                bad("s3.entropy.key", "_ent#ropy_", "without any of"),
                bad("s3.entropy.length", "0", "from 1 to 64"),
                bad("s3.metrics.log-interval", "-5 min", "0 or a positive duration"),
                bad("s3.storage-class", "FROZEN", "STANDARD_IA"),
                bad("s3.requester-pays.enabled", "sometimes", "true or false"),
                bad(
                        Map.of("s3.accesspoint.arn", "arn:aws:s3:us-east-1:123456789012:accesspoint/flink"),
                        "s3.accesspoint.arn",
                        null,
                        "s3.bucket.<bucket>.accesspoint.arn"),
                // Per-bucket keys are checked for their bucket and named as written.
                bad("s3.bucket.lake.accesspoint.arn", "arn:aws:iam::123456789012:role/flink", "access point ARN"),
                bad("s3.bucket.savepoints.upload.min.part.size", "1 mb", "from 5 MiB to 1 GiB"),
                bad("fs.s3a.bucket.savepoints.create.storage.class", "FROZEN", "STANDARD_IA"),
                bad(
                        Map.of("fs.s3a.bucket.savepoints.access.key", "AKIAEXAMPLE"),
                        "fs.s3a.bucket.savepoints.access.key",
                        null,
                        "s3.bucket.savepoints.secret-key"));
    }

    private static Arguments bad(String key, String value, String allowed) {
        return bad(Map.of(key, value), key, value, allowed);
    }

    /** @param value the value the message must show, or {@code null} where it must not (secrets, combinations) */
    private static Arguments bad(Map<String, String> config, String key, String value, String allowed) {
        return Arguments.of(key, config, value, allowed);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badOptions")
    void aBadOptionFailsNamingKeyValueAndWhatIsAllowedBeforeAnyRequest(
            String key, Map<String, String> config, String value, String allowed) {
        tried.incrementAndGet();
        // No keys in the base: rows about credentials bring their own.
        Configuration configuration = new Configuration();
        configuration.setString("s3.endpoint", server.endpoint().toString());
        configuration.setString("s3.path-style-access", "true");
        config.forEach(configuration::setString);
        long requestsBefore = server.requestLog().counts().values().stream()
                .mapToLong(Long::longValue)
                .sum();

        Throwable failure = catchThrowable(() -> {
            FileSystemFactory factory = s3Factory();
            factory.configure(configuration);
            try {
                factory.create(URI.create("s3://" + SharedS3ProxyTarget.bucket() + "/"))
                        .exists(new Path("/probe"));
            } finally {
                factory.configure(new Configuration());
            }
        });

        assertThat(failure).as("%s", config).isNotNull();
        assertThat(failure.getMessage()).contains(key).contains(allowed).doesNotContain(SECRET_VALUE);
        if (value != null) {
            assertThat(failure.getMessage()).contains(value);
        }
        assertThat(server.requestLog().counts().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .as("requests to the server")
                .isEqualTo(requestsBefore);
    }

    @Test
    void everyOptionHasARow() throws Exception {
        Set<String> covered = new TreeSet<>();
        badOptions().forEach(row -> covered.add((String) row.get()[0]));
        Set<String> options = new TreeSet<>();
        for (Field field : S3ConfigOptions.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == ConfigOption.class) {
                options.add(((ConfigOption<?>) field.get(null)).key());
            }
        }

        assertThat(covered).containsAll(options);
    }

    /** Paths that name no S3 location, and what the message must say. */
    static Stream<Arguments> badPaths() {
        return Stream.of(
                Arguments.of("s3:///no-bucket/key", "s3:///", "has no bucket"),
                Arguments.of("s3://ab/key", "s3://ab/", "Illegal S3 bucket name 'ab'"),
                Arguments.of("s3://-bucket-/key", "s3://-bucket-/", "Illegal S3 bucket name '-bucket-'"),
                Arguments.of("s3://a..b/key", "s3://a..b/", "Illegal S3 bucket name 'a..b'"),
                Arguments.of(
                        "s3://" + "b".repeat(64) + "/key",
                        "s3://" + SharedS3ProxyTarget.bucket() + "/",
                        "Illegal S3 bucket name"),
                Arguments.of(
                        "s3://" + SharedS3ProxyTarget.bucket() + "/" + LONG_KEY,
                        "s3://" + SharedS3ProxyTarget.bucket() + "/",
                        "1025 bytes is longer than the 1024 bytes"),
                Arguments.of(
                        "s3://" + SharedS3ProxyTarget.bucket() + "/" + LONG_UTF8_KEY,
                        "s3://" + SharedS3ProxyTarget.bucket() + "/",
                        "1026 bytes is longer than the 1024 bytes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badPaths")
    void aPathThatIsNoS3LocationFailsEveryOperationBeforeAnyRequest(String path, String fsUri, String message)
            throws Exception {
        FileSystemFactory factory = s3Factory();
        factory.configure(SharedS3ProxyTarget.flinkConfiguration());
        try {
            FileSystem fs = factory.create(URI.create(fsUri));
            Path bad = new Path(path);
            Path good = new Path("s3://" + SharedS3ProxyTarget.bucket() + "/BadInputTest/good");
            List<Operation> operations = List.of(
                    () -> fs.create(bad, WriteMode.NO_OVERWRITE),
                    () -> fs.open(bad),
                    () -> fs.getFileStatus(bad),
                    () -> fs.exists(bad),
                    () -> fs.listStatus(bad),
                    () -> fs.delete(bad, true),
                    () -> fs.mkdirs(bad),
                    () -> fs.rename(good, bad),
                    () -> fs.createRecoverableWriter().open(bad));
            long requestsBefore = requests();
            for (Operation operation : operations) {
                tried.incrementAndGet();
                Throwable failure = catchThrowable(operation::run);
                assertThat(failure)
                        .as("%s on %s", operation, path)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(message);
            }
            assertThat(requests()).as("requests to the server").isEqualTo(requestsBefore);
        } finally {
            factory.configure(new Configuration());
        }
    }

    private long requests() {
        return server.requestLog().counts().values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    /** One filesystem call with a bad path. */
    @FunctionalInterface
    private interface Operation {
        Object run() throws Exception;
    }

    private static FileSystemFactory s3Factory() {
        for (FileSystemFactory factory : ServiceLoader.load(FileSystemFactory.class)) {
            if (factory.getScheme().equals("s3")) {
                return factory;
            }
        }
        throw new AssertionError("no FileSystemFactory for s3 on the test classpath");
    }
}
