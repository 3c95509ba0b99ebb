package dev.flinks3.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.fs.BadValues;
import dev.flinks3.fs.S3ConfigOptions;
import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.testserver.EmbeddedS3Server;
import java.io.IOException;
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
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 6, bad input: every configuration option with a bad value, and paths that are no S3 location,
 * fail with a message naming the key and the value (or the path) and what is allowed, through Flink's
 * factory, before a single request reaches the server. The table of single bad values is {@link
 * BadValues}, shared with {@code S3SettingsFactoryTest} in the filesystem module; this test adds the
 * end-to-end view, the rows only this path checks, and a check that no option is left out.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
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

    /**
     * The shared table of {@link BadValues} (also tried by {@code S3SettingsFactoryTest}), then the rows only
     * this end-to-end path checks: combinations, secrets (whose values must not be shown), credential
     * providers and per-bucket keys. Each row: the key as a user writes it, the configuration, the value the
     * message must show and what it must say is allowed.
     */
    static Stream<Arguments> badOptions() {
        return Stream.concat(
                BadValues.rows().stream().map(row -> Arguments.of(row.key(), row.config(), row.value(), row.allowed())),
                Stream.of(
                        bad(Map.of("s3.access-key", "AKIAEXAMPLE"), "s3.access-key", null, "secret key"),
                        bad(Map.of("s3.secret-key", SECRET_VALUE), "s3.secret-key", null, "access key"),
                        bad(Map.of("s3.session-token", SECRET_VALUE), "s3.session-token", null, "access"),
                        bad("fs.s3.aws.credentials.provider", "com.example.NoSuchProvider", "not found"),
                        bad(
                                Map.of(
                                        "s3.assume-role.arn",
                                        "arn:aws:iam::123456789012:role/flink",
                                        "s3.assume-role.external-id",
                                        "x"),
                                "s3.assume-role.external-id",
                                "x",
                                "2 to 1224"),
                        bad(
                                Map.of("s3.upload.min.part.size", "256 mb", "s3.request.attempt-timeout", "2 min"),
                                "s3.request.attempt-timeout",
                                "2 min",
                                "one part of 's3.upload.min.part.size' (256 MiB)"),
                        bad(Map.of("s3.sse.kms.key-id", "alias/flink"), "s3.sse.kms.key-id", null, "not sse-kms"),
                        bad(
                                Map.of("s3.sse.type", "sse-c", "s3.sse.c.key", SECRET_VALUE),
                                "s3.sse.c.key",
                                null,
                                "256-bit"),
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
                        bad(
                                Map.of("s3.accesspoint.arn", "arn:aws:s3:us-east-1:123456789012:accesspoint/flink"),
                                "s3.accesspoint.arn",
                                null,
                                "s3.bucket.<bucket>.accesspoint.arn"),
                        bad(
                                "s3.bucket.lake.accesspoint.arn",
                                "arn:aws:iam::123456789012:role/flink",
                                "access point ARN"),
                        bad("s3.bucket.savepoints.upload.min.part.size", "1 mb", "from 5 MiB to 1 GiB"),
                        bad("fs.s3a.bucket.savepoints.create.storage.class", "FROZEN", "STANDARD_IA"),
                        bad(
                                Map.of("fs.s3a.bucket.savepoints.access.key", "AKIAEXAMPLE"),
                                "fs.s3a.bucket.savepoints.access.key",
                                null,
                                "s3.bucket.savepoints.secret-key")));
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
        // The base keys only where the row sets no spelling of them, which would lose to the base's.
        Configuration configuration = new Configuration();
        if (!setsAnySpelling(config, S3ConfigOptions.ENDPOINT)) {
            configuration.setString("s3.endpoint", server.endpoint().toString());
        }
        if (!setsAnySpelling(config, S3ConfigOptions.PATH_STYLE_ACCESS)) {
            configuration.setString("s3.path-style-access", "true");
        }
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

    private static boolean setsAnySpelling(Map<String, String> config, ConfigOption<?> option) {
        if (config.containsKey(option.key())) {
            return true;
        }
        for (FallbackKey fallback : option.fallbackKeys()) {
            if (config.containsKey(fallback.getKey())) {
                return true;
            }
        }
        return false;
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
                    () -> fs.rename(good, bad));
            long requestsBefore = requests();
            for (Operation operation : operations) {
                tried.incrementAndGet();
                Throwable failure = catchThrowable(operation::run);
                assertThat(failure)
                        .as("%s on %s", operation, path)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(message);
            }
            // The recoverable writer's open() reports a location it cannot write as the IOException of Flink's
            // signature, with the same reason (a filesystem whose own URI names no bucket fails on creating it).
            tried.incrementAndGet();
            assertThat(catchThrowable(() -> fs.createRecoverableWriter().open(bad)))
                    .as("the recoverable writer's open on %s", path)
                    .isInstanceOfAny(IllegalArgumentException.class, IOException.class)
                    .hasMessageContaining(message);
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
