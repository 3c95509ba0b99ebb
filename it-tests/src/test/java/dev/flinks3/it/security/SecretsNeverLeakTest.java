package dev.flinks3.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.fs.S3FileSystemSettings;
import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.it.faults.Fault;
import dev.flinks3.it.faults.ProxiedFileSystem;
import dev.flinks3.testserver.RequestKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Issue 6, secrets: the secret key, the session token and the SSE-C key never appear in what the
 * filesystem logs at DEBUG, in exception messages and stack traces, in {@code toString()} or in the
 * request metrics, over a full run of writes, reads, listing, rename, delete, retried faults and
 * failures. The run must really have logged (the SDK's request lines), so the scan cannot pass on an
 * empty log.
 *
 * <p>The AWS SDK logs no secret either, with one exception this test pins: at DEBUG its request
 * signer logs each canonical request, which holds the session token and the SSE-C key (signed
 * headers). The client owner then warns once that this logger must stay above DEBUG.
 */
class SecretsNeverLeakTest {

    private static final String SECRET_KEY = "SECRET-2b7e151628aed2a6abf7158809cf4f3c";
    private static final String SESSION_TOKEN = "TOKEN-FQoGZXIvYXdzEJr-9c1d3f8e7b6a5";
    private static final String SIGNER_LOGGER =
            "software.amazon.awssdk.http.auth.aws.internal.signer.DefaultV4RequestSigner";
    private static final String CUSTOMER_KEY =
            Base64.getEncoder().encodeToString("SSE-C-KEY-a1b2c3d4e5f60718293a4b".getBytes(StandardCharsets.US_ASCII));

    @Test
    void noSecretInLogsExceptionsTextsOrMetrics() throws Exception {
        Map<String, String> options = new HashMap<>(Map.of(
                "s3.access-key", "AKIAFLINKS3SECRETSTEST",
                "s3.secret-key", SECRET_KEY,
                "s3.session-token", SESSION_TOKEN,
                "s3.sse.type", "sse-c",
                "s3.sse.c.key", CUSTOMER_KEY,
                "s3.upload.min.part.size", "5mb",
                "s3.retry.max-num-retries", "2"));
        List<String> texts = new ArrayList<>();
        try (UnsignedServer unsigned = new UnsignedServer();
                CapturedLogs logs = CapturedLogs.capture("dev.flinks3", "software.amazon.awssdk")) {
            // S3Proxy answers 501 to a session token it was not configured for.
            unsigned.proxy.stripHeaders("x-amz-security-token");
            try (ProxiedFileSystem fileSystem = ProxiedFileSystem.create(unsigned.proxy, options)) {
                Path dir =
                        new Path("s3://" + SharedS3ProxyTarget.bucket() + "/SecretsNeverLeakTest/" + UUID.randomUUID());
                FileSystemWorkout.run(fileSystem.fs(), dir);
                texts.addAll(faultRun(unsigned, fileSystem, dir));
                texts.add(fileSystem.toString());
                texts.add(fileSystem.metrics().toString());
                texts.add(S3FileSystemSettings.fromConfiguration(Configuration.fromMap(options))
                        .toString());
                try (FSDataOutputStream out = fileSystem.fs().create(new Path(dir, "open"), WriteMode.OVERWRITE)) {
                    texts.add(out.toString());
                }
            }
            List<CapturedLogs.Event> events = logs.events();
            assertThat(events)
                    .as("the SDK's DEBUG request log was captured")
                    .anySatisfy(event -> assertThat(event.text()).contains("Sending Request"))
                    .hasSizeGreaterThan(50);
            assertThat(events)
                    .filteredOn(event -> event.logger().startsWith("dev.flinks3"))
                    .allSatisfy(event -> assertNoSecret(event.text()));
            assertThat(events)
                    .filteredOn(event -> !isSignersCanonicalRequest(event))
                    .allSatisfy(event -> assertNoSecret(event.text()));
            assertThat(events)
                    .filteredOn(SecretsNeverLeakTest::isSignersCanonicalRequest)
                    .as("the SDK's canonical requests hold the signed secret headers, never the secret key")
                    .isNotEmpty()
                    .allSatisfy(event -> assertThat(event.text()).doesNotContain(SECRET_KEY));
            assertThat(events)
                    .as("the warning about the signer's DEBUG log")
                    .anySatisfy(event -> assertThat(event.text())
                            .contains("WARN")
                            .contains(SIGNER_LOGGER)
                            .contains("session token"));
        }
        texts.forEach(SecretsNeverLeakTest::assertNoSecret);
    }

    private static boolean isSignersCanonicalRequest(CapturedLogs.Event event) {
        return event.logger().equals(SIGNER_LOGGER) && event.text().contains("AWS4 Canonical Request");
    }

    private static void assertNoSecret(String text) {
        assertThat(text)
                .doesNotContain(SECRET_KEY)
                .doesNotContain(SESSION_TOKEN)
                .doesNotContain(CUSTOMER_KEY);
    }

    /** Faults retried and faults that fail; returns the failures' messages and stack traces. */
    private static List<String> faultRun(UnsignedServer unsigned, ProxiedFileSystem fileSystem, Path dir) {
        List<String> failures = new ArrayList<>();
        unsigned.proxy.failNext(RequestKind.UPLOAD_PART, 1, Fault.slowDown());
        unsigned.proxy.failNext(RequestKind.COMPLETE_MULTIPART_UPLOAD, 1, Fault.dropResponse());
        unsigned.proxy.failNext(RequestKind.GET_OBJECT, 1, Fault.resetMidBody());
        failures.add(trace(catchThrowable(() -> FileSystemWorkout.run(fileSystem.fs(), new Path(dir, "retried")))));
        unsigned.proxy.failAlways(RequestKind.PUT_OBJECT, Fault.error(403, "AccessDenied", "Access Denied"));
        unsigned.proxy.failAlways(RequestKind.GET_OBJECT, Fault.internalError());
        unsigned.proxy.failAlways(RequestKind.UPLOAD_PART, Fault.resetBeforeResponse());
        Throwable denied =
                catchThrowable(() -> FileSystemWorkout.write(fileSystem.fs(), new Path(dir, "denied"), new byte[10]));
        Throwable broken = catchThrowable(() -> FileSystemWorkout.write(
                fileSystem.fs(), new Path(dir, "broken"), FileSystemWorkout.bytes(6 * FileSystemWorkout.MIB, 3)));
        unsigned.proxy.clear();
        unsigned.proxy.failAlways(RequestKind.GET_OBJECT, Fault.internalError());
        Throwable unreadable = catchThrowable(() -> {
            Path file = new Path(dir, "unreadable");
            FileSystemWorkout.write(fileSystem.fs(), file, new byte[10]);
            FileSystemWorkout.read(fileSystem.fs(), file);
        });
        unsigned.proxy.clear();
        assertThat(denied).hasMessageContaining("AccessDenied");
        assertThat(broken).isNotNull();
        assertThat(unreadable).hasMessageContaining("InternalError");
        failures.add(trace(denied));
        failures.add(trace(broken));
        failures.add(trace(unreadable));
        return failures;
    }

    private static String trace(Throwable failure) {
        if (failure == null) {
            return "";
        }
        StringWriter text = new StringWriter();
        failure.printStackTrace(new PrintWriter(text));
        return text.toString();
    }
}
