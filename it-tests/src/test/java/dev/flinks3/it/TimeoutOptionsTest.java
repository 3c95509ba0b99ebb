package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.it.faults.Fault;
import dev.flinks3.it.faults.FaultInjectingProxy;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The timeout options take effect, each against a fault at a real boundary and next to a filesystem
 * with the default value that behaves differently in the same situation:
 *
 * <ul>
 *   <li>{@code s3.connection.timeout} (both HTTP clients): toward a port where connecting hangs ({@link
 *       FullBacklogListener}), 1 s and one retry give up with the connect timeout in the error while the
 *       default (10 s) is still waiting for its first connection;
 *   <li>{@code s3.socket.timeout} (both HTTP clients): an answer held back for {@value #STALL_SECONDS} s by
 *       the {@link FaultInjectingProxy} leaves the connection silent; 1 s drops that attempt and retries
 *       (two HEADs), the default (60 s) waits for the answer (one HEAD);
 *   <li>{@code s3.request.timeout}: 2 s fails a call whose answer is held back longer, after one attempt;
 *   <li>{@code s3.request.attempt-timeout}: 5 s abandons an attempt whose answer is held back longer and
 *       retries (two HEADs, answered), the default (2 min) waits for the answer (one HEAD).
 * </ul>
 */
class TimeoutOptionsTest extends AbstractS3ProxyFileSystemTest {

    private static final int STALL_SECONDS = 5;
    private static final Duration HELD_BACK = Duration.ofSeconds(8);
    /** Two connect attempts of 1 s and a retry backoff of well under a second, with room for a slow machine. */
    private static final Duration SHORT_CONNECT_TIMEOUT_FAILS_WITHIN = Duration.ofSeconds(8);

    @ParameterizedTest(name = "s3.http-client: {0}")
    @ValueSource(strings = {"crt", "netty"})
    @Timeout(60)
    void aShortConnectTimeoutGivesUpWhileTheDefaultStillWaits(String httpClient) throws Exception {
        Path object = new Path(dir, "never-reached");
        try (FullBacklogListener hanging = new FullBacklogListener()) {
            S3TestTarget unreachable = target.via(hanging.endpoint());
            FileSystemFactory byDefault = FlinkS3FileSystems.factory(
                    "s3",
                    unreachable.flinkConfiguration(
                            Map.of("s3.http-client", httpClient, "s3.retry.max-num-retries", "0")));
            FileSystemFactory shortTimeout = FlinkS3FileSystems.factory(
                    "s3",
                    unreachable.flinkConfiguration(Map.of(
                            "s3.http-client",
                            httpClient,
                            "s3.retry.max-num-retries",
                            "1",
                            "s3.connection.timeout",
                            "1 s")));
            try {
                CompletableFuture<Long> defaultCall = CompletableFuture.supplyAsync(() -> lengthOf(byDefault, object));
                long start = System.nanoTime();

                assertThatThrownBy(() -> shortTimeout.create(object.toUri()).getFileStatus(object))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining("HeadObject failed")
                        .satisfies(e -> assertThat(saysConnectTimedOut(e))
                                .as("a connect timeout in %s", e)
                                .isTrue());

                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(SHORT_CONNECT_TIMEOUT_FAILS_WITHIN);
                assertThat(defaultCall)
                        .as("the call with the default connect timeout")
                        .isNotDone();
            } finally {
                hanging.close();
                FlinkS3FileSystems.closeClients(shortTimeout);
                FlinkS3FileSystems.closeClients(byDefault);
            }
        }
    }

    @ParameterizedTest(name = "s3.http-client: {0}")
    @ValueSource(strings = {"crt", "netty"})
    @Timeout(60)
    void aShortSocketTimeoutDropsASilentAttemptWhileTheDefaultWaits(String httpClient) throws Exception {
        Path object = new Path(dir, "object");
        write(object, randomBytes(42, 1));
        Fault silence = Fault.delayFirstByte(Duration.ofSeconds(STALL_SECONDS));
        assertHeadsOfAHeldBackAnswer(
                object,
                silence,
                Map.of("s3.http-client", httpClient, "s3.socket.timeout", "1 s"),
                Map.of("s3.http-client", httpClient));
    }

    @Test
    @Timeout(60)
    void theRequestTimeoutFailsACallThatRunsLonger() throws Exception {
        Path object = new Path(dir, "object");
        write(object, randomBytes(42, 2));
        try (FaultInjectingProxy proxy = new FaultInjectingProxy(target.endpoint())) {
            proxy.failAlways(RequestKind.HEAD_OBJECT, Fault.delayFirstByte(HELD_BACK));
            FileSystemFactory factory = FlinkS3FileSystems.factory(
                    "s3", target.via(proxy.endpoint()).flinkConfiguration(Map.of("s3.request.timeout", "2 s")));
            try {
                long start = System.nanoTime();
                assertThatThrownBy(() -> factory.create(object.toUri()).getFileStatus(object))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining("HeadObject failed")
                        .hasStackTraceContaining("ApiCallTimeoutException");
                assertThat(Duration.ofNanos(System.nanoTime() - start))
                        .as("time to the failure")
                        .isLessThan(HELD_BACK);
                assertThat(proxy.count(RequestKind.HEAD_OBJECT))
                        .as("HEADs sent")
                        .isEqualTo(1);
            } finally {
                FlinkS3FileSystems.closeClients(factory);
            }
        }
    }

    @Test
    @Timeout(60)
    void theAttemptTimeoutAbandonsALongAttemptAndRetriesWhileTheDefaultWaits() throws Exception {
        Path object = new Path(dir, "object");
        write(object, randomBytes(42, 3));
        // 5 s is the shortest attempt timeout the configuration takes with 5 MiB parts (1 s per MiB).
        assertHeadsOfAHeldBackAnswer(
                object,
                Fault.delayFirstByte(HELD_BACK),
                Map.of("s3.request.attempt-timeout", "5 s", "s3.upload.min.part.size", "5 mb"),
                Map.of());
    }

    /**
     * Holds back the answer to the first HeadObject of each of two filesystems, one with {@code shortOptions}
     * and one with {@code defaultOptions}, run at the same time: the first must drop its silent attempt and
     * retry (two HEADs), the second must wait for the answer (one HEAD); both find the object.
     */
    private void assertHeadsOfAHeldBackAnswer(
            Path object, Fault holdBack, Map<String, String> shortOptions, Map<String, String> defaultOptions)
            throws Exception {
        long length = fs.getFileStatus(object).getLen();
        try (FaultInjectingProxy shortProxy = new FaultInjectingProxy(target.endpoint());
                FaultInjectingProxy defaultProxy = new FaultInjectingProxy(target.endpoint())) {
            shortProxy.failNext(RequestKind.HEAD_OBJECT, 1, holdBack);
            defaultProxy.failNext(RequestKind.HEAD_OBJECT, 1, holdBack);
            FileSystemFactory shortTimeout = FlinkS3FileSystems.factory(
                    "s3", target.via(shortProxy.endpoint()).flinkConfiguration(shortOptions));
            FileSystemFactory byDefault = FlinkS3FileSystems.factory(
                    "s3", target.via(defaultProxy.endpoint()).flinkConfiguration(defaultOptions));
            try {
                CompletableFuture<Long> defaultCall = CompletableFuture.supplyAsync(() -> lengthOf(byDefault, object));

                assertThat(lengthOf(shortTimeout, object)).isEqualTo(length);
                assertThat(shortProxy.count(RequestKind.HEAD_OBJECT))
                        .as("HEADs with %s", shortOptions)
                        .isEqualTo(2);

                assertThat(defaultCall.get()).isEqualTo(length);
                assertThat(defaultProxy.count(RequestKind.HEAD_OBJECT))
                        .as("HEADs with %s", defaultOptions)
                        .isEqualTo(1);
            } finally {
                FlinkS3FileSystems.closeClients(shortTimeout);
                FlinkS3FileSystems.closeClients(byDefault);
            }
        }
    }

    private static long lengthOf(FileSystemFactory factory, Path object) {
        try {
            return factory.create(object.toUri()).getFileStatus(object).getLen();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a cause says a connect attempt timed out, as the CRT and Netty clients word it. */
    private static boolean saysConnectTimedOut(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            // CRT: "AWS_IO_SOCKET_TIMEOUT: socket operation timed out."; Netty: "connection timed out after 1000 ms".
            if (message.contains("socket operation timed out") || message.contains("connection timed out")) {
                return true;
            }
        }
        return false;
    }
}
