package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.EncryptionSettings;
import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.Secret;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.read.S3SeekableInputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Positional reads sent without the SDK's pipeline ({@link DirectRangedGet}), against S3Proxy checking every
 * signature: the bytes, the one GET each read costs, and every answer other than a plain 206 sent again
 * through the SDK with the result it gave before.
 */
@Timeout(60)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DirectRangedGetS3ProxyTest {

    private static final String BUCKET = "direct";
    private static final byte[] DATA = new byte[256 * 1024];

    private EmbeddedS3Server server;
    private S3Settings settings;
    private S3ClientOwner owner;
    private ObjectClient client;

    @BeforeAll
    void start() {
        new Random(3).nextBytes(DATA);
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
        settings = TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY)
                .build();
        owner = new S3ClientOwner(settings);
        client = owner.objectClient();
    }

    @AfterAll
    void stop() throws Exception {
        try (EmbeddedS3Server stopping = server) {
            owner.close();
        }
    }

    @BeforeEach
    void clean() {
        server.answers().clear();
        server.clearFaults();
    }

    @ParameterizedTest
    @ValueSource(strings = {"plain", "dir/sub dir/key with spaces+plus", "ünïcödé/%25 percent&amp=?#", "~tilde*star!"})
    void aPositionalReadIsOneSignedGetOffThePipelineWithTheRightBytes(String key) throws Exception {
        server.putObjectDirectly(BUCKET, key, DATA);
        server.requestLog().clear();
        ByteBuffer dst = ByteBuffer.allocate(16 * 1024);

        GetAnswer read = wait(client.get(
                GetRequest.into(S3Location.of("s3", BUCKET, key), 1000, dst).waiting()));

        assertThat(read.bytes()).isEqualTo(16 * 1024);
        assertThat(read.objectLength()).isEqualTo(DATA.length);
        assertThat(read.eTag()).isNotBlank();
        assertThat(dst.position()).as("position not moved").isZero();
        assertThat(Arrays.equals(dst.array(), 0, 16 * 1024, DATA, 1000, 1000 + 16 * 1024))
                .isTrue();
        List<RequestRecord> gets = server.requestLog().entries(RequestKind.GET_OBJECT);
        assertThat(gets).hasSize(1);
        assertThat(gets.get(0).key()).isEqualTo(key);
        assertThat(gets.get(0).header("User-Agent")).contains(DirectRangedGet.USER_AGENT);
    }

    @Test
    void keysWithEmptyOrDotSegmentsAreReadThroughTheSdk() throws Exception {
        for (String key : List.of("a//b", "a/./b", "a/../b", "./x")) {
            server.putObjectDirectly(BUCKET, key, DATA);
            server.requestLog().clear();
            ByteBuffer dst = ByteBuffer.allocate(100);

            GetAnswer read = wait(client.get(
                    GetRequest.into(S3Location.of("s3", BUCKET, key), 5, dst).waiting()));

            assertThat(read.bytes()).isEqualTo(100);
            assertThat(Arrays.equals(dst.array(), 0, 100, DATA, 5, 105)).isTrue();
            assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                    .as(key)
                    .singleElement()
                    .satisfies(r ->
                            assertThat(r.header("User-Agent").orElse("")).doesNotContain(DirectRangedGet.USER_AGENT));
        }
    }

    @Test
    void aDirectBufferAndARangePastTheEndGetWhatTheObjectHas() throws Exception {
        server.putObjectDirectly(BUCKET, "tail", DATA);
        ByteBuffer dst = ByteBuffer.allocateDirect(8192);

        GetAnswer read = wait(client.get(GetRequest.into(S3Location.of("s3", BUCKET, "tail"), DATA.length - 100, dst)
                .waiting()));

        assertThat(read.bytes()).isEqualTo(100);
        byte[] got = new byte[100];
        dst.duplicate().get(got);
        assertThat(got).isEqualTo(Arrays.copyOfRange(DATA, DATA.length - 100, DATA.length));
    }

    @Test
    void aThrottledDirectAttemptIsSentAgainThroughTheSdkAndCountedAsAFailedAttempt() throws Exception {
        server.putObjectDirectly(BUCKET, "throttled", DATA);
        server.requestLog().clear();
        S3RequestMetrics.Snapshot before = owner.requestMetrics().snapshot();
        server.failNext(RequestKind.GET_OBJECT, 1, 503, "SlowDown");

        GetAnswer read =
                wait(client.get(GetRequest.into(S3Location.of("s3", BUCKET, "throttled"), 0, ByteBuffer.allocate(4096))
                        .waiting()));

        S3RequestMetrics.Snapshot since = owner.requestMetrics().snapshot().since(before);
        assertThat(read.bytes()).isEqualTo(4096);
        List<RequestRecord> gets = server.requestLog().entries(RequestKind.GET_OBJECT);
        assertThat(gets).hasSize(2);
        assertThat(gets.get(1).header("User-Agent").orElse("")).doesNotContain(DirectRangedGet.USER_AGENT);
        assertThat(since.requests()).as("the SDK's call").isEqualTo(1);
        assertThat(since.attempts()).isEqualTo(2);
        assertThat(since.throttledAttempts()).isEqualTo(1);
        assertThat(since.backoffAfterThrottling().shortestMillis())
                .as("waited as the SDK waits after throttling")
                .isGreaterThanOrEqualTo(S3RetryStrategy.THROTTLING_BASE_DELAY_MS / 2);
        assertThat(owner.requestMetrics().operations().get("GetObject").requests())
                .isPositive();
    }

    @Test
    void aChangedObjectFailsAsBeforeThroughTheSdk() throws Exception {
        server.putObjectDirectly(BUCKET, "changed", DATA);
        server.requestLog().clear();

        Throwable failure = catchThrowable(() ->
                wait(client.get(GetRequest.into(S3Location.of("s3", BUCKET, "changed"), 0, ByteBuffer.allocate(4096))
                        .ifMatch("\"0123456789abcdef0123456789abcdef\"")
                        .waiting())));

        assertThat(failure).isInstanceOf(S3RequestException.class);
        assertThat(((S3RequestException) failure).statusCode()).isEqualTo(412);
        assertThat(server.requestLog().count(RequestKind.GET_OBJECT)).isEqualTo(2);
    }

    @Test
    void aServerIgnoringTheRangeGetsTheSdksAnswerToIt() throws Exception {
        server.putObjectDirectly(BUCKET, "ignored", DATA);
        server.answers()
                .answer(
                        RequestKind.GET_OBJECT,
                        request -> true,
                        AnswerRewriteFilter.ALWAYS,
                        new AnswerRewriteFilter.Answer(200, DATA));
        server.requestLog().clear();

        Throwable failure = catchThrowable(() ->
                wait(client.get(GetRequest.into(S3Location.of("s3", BUCKET, "ignored"), 100, ByteBuffer.allocate(4096))
                        .waiting())));

        // Never the whole object's first bytes taken for the range: the SDK's path is asked, and fails as before.
        assertThat(failure).isInstanceOf(S3RequestException.class);
        List<RequestRecord> gets = server.requestLog().entries(RequestKind.GET_OBJECT);
        assertThat(gets.get(0).header("User-Agent")).contains(DirectRangedGet.USER_AGENT);
        assertThat(gets.subList(1, gets.size()))
                .isNotEmpty()
                .allSatisfy(
                        r -> assertThat(r.header("User-Agent").orElse("")).doesNotContain(DirectRangedGet.USER_AGENT));
    }

    @Test
    void aMissingObjectAndAnEmptyOneAnswerAsThroughTheSdk() throws Exception {
        server.putObjectDirectly(BUCKET, "empty", new byte[0]);

        Throwable missing = catchThrowable(() ->
                wait(client.get(GetRequest.into(S3Location.of("s3", BUCKET, "missing"), 0, ByteBuffer.allocate(10))
                        .waiting())));
        GetAnswer empty =
                wait(client.get(GetRequest.into(S3Location.of("s3", BUCKET, "empty"), 0, ByteBuffer.allocate(10))
                        .waiting()));

        assertThat(missing).isInstanceOf(java.io.FileNotFoundException.class);
        assertThat(empty.bytes()).isZero();
    }

    @Test
    void anAnswerHeldPastTheAttemptTimeoutIsAbortedAndSentAgainThroughTheSdk() throws Exception {
        S3Settings settings = TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY)
                .client(c -> c.apiCallAttemptTimeout(Duration.ofMillis(700)))
                .build();
        server.putObjectDirectly(BUCKET, "slow", DATA);
        try (S3ClientOwner impatient = new S3ClientOwner(settings)) {
            server.answers()
                    .rewrite(
                            RequestKind.GET_OBJECT,
                            r -> DirectRangedGet.USER_AGENT.equals(r.getHeader("User-Agent")),
                            1,
                            (request, served) -> {
                                sleep(2_000);
                                return served;
                            });
            S3RequestMetrics.Snapshot before = impatient.requestMetrics().snapshot();
            long start = System.nanoTime();

            GetAnswer read = wait(impatient
                    .objectClient()
                    .get(GetRequest.into(S3Location.of("s3", BUCKET, "slow"), 0, ByteBuffer.allocate(4096))
                            .waiting()));

            assertThat(read.bytes()).isEqualTo(4096);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1_900));
            assertThat(impatient.requestMetrics().snapshot().since(before).timedOutAttempts())
                    .isEqualTo(1);
        }
    }

    @Test
    void aSeekableStreamsPositionalReadsGoDirect() throws Exception {
        server.putObjectDirectly(BUCKET, "stream", DATA);
        server.requestLog().clear();
        byte[] got = new byte[5000];
        try (S3SeekableInputStream in = new S3SeekableInputStream(
                client, S3Location.of("s3", BUCKET, "stream"), settings.read(), DATA.length)) {
            for (int i = 0; i < 5; i++) {
                in.readFully(40_000L * i, ByteBuffer.wrap(got));
                assertThat(got).isEqualTo(Arrays.copyOfRange(DATA, 40_000 * i, 40_000 * i + 5000));
            }
        }

        assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                .hasSize(5)
                .allSatisfy(r -> assertThat(r.header("User-Agent")).contains(DirectRangedGet.USER_AGENT));
    }

    @Test
    void aRefusedSignatureStopsDirectGetsOfThatClient() throws Exception {
        server.putObjectDirectly(BUCKET, "refused", DATA);
        try (S3ClientOwner own = new S3ClientOwner(settings)) {
            server.answers()
                    .refuse(
                            RequestKind.GET_OBJECT,
                            r -> DirectRangedGet.USER_AGENT.equals(r.getHeader("User-Agent")),
                            AnswerRewriteFilter.ALWAYS,
                            403,
                            "SignatureDoesNotMatch",
                            "The request signature we calculated does not match the signature you provided.");
            server.requestLog().clear();
            S3Location location = S3Location.of("s3", BUCKET, "refused");

            GetAnswer first = wait(own.objectClient()
                    .get(GetRequest.into(location, 0, ByteBuffer.allocate(100)).waiting()));
            GetAnswer second = wait(own.objectClient()
                    .get(GetRequest.into(location, 100, ByteBuffer.allocate(100))
                            .waiting()));

            assertThat(first.bytes()).isEqualTo(100);
            assertThat(second.bytes()).isEqualTo(100);
            List<RequestRecord> gets = server.requestLog().entries(RequestKind.GET_OBJECT);
            assertThat(gets)
                    .as("the refused direct GET, its SDK resend, the second read through the SDK")
                    .hasSize(3);
            assertThat(gets.get(2).header("User-Agent").orElse("")).doesNotContain(DirectRangedGet.USER_AGENT);
        }
        // Other clients keep their direct GETs.
        server.answers().clear();
        server.requestLog().clear();
        wait(client.get(GetRequest.into(S3Location.of("s3", BUCKET, "refused"), 0, ByteBuffer.allocate(100))
                .waiting()));
        assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                .singleElement()
                .satisfies(r -> assertThat(r.header("User-Agent")).contains(DirectRangedGet.USER_AGENT));
    }

    @Test
    void anErrorBodysCodeIsRead() {
        assertThat(DirectRangedGet.errorCode(
                        "<?xml version=\"1.0\"?><Error><Code>SignatureDoesNotMatch</Code><Message>m</Message></Error>"))
                .isEqualTo("SignatureDoesNotMatch");
        assertThat(DirectRangedGet.errorCode("not xml")).isEmpty();
        assertThat(DirectRangedGet.contentRange("bytes 0-99/1000")).containsExactly(0, 99, 1000);
        assertThat(DirectRangedGet.contentRange("bytes 5-9/*")).containsExactly(5, 9, -1);
        assertThat(DirectRangedGet.contentRange("bytes 9-5/10")).isNull();
        assertThat(DirectRangedGet.contentRange("items 0-1/2")).isNull();
        assertThat(DirectRangedGet.plainPath("a/b c/d")).isTrue();
        assertThat(DirectRangedGet.plainPath("a//b")).isFalse();
        assertThat(DirectRangedGet.plainPath("a/./b")).isFalse();
    }

    @Test
    void onlyARangeFromByteZeroAsksForTheObjectsChecksumDirectOrThroughTheSdk() throws Exception {
        server.putObjectDirectly(BUCKET, "checksum-mode", DATA);
        S3Settings sdkOnlySettings = TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY)
                .read(r -> r.directGetsEnabled(false))
                .build();
        try (S3ClientOwner sdkOnly = new S3ClientOwner(sdkOnlySettings)) {
            for (ObjectClient reader : List.of(client, sdkOnly.objectClient())) {
                server.requestLog().clear();
                S3Location location = S3Location.of("s3", BUCKET, "checksum-mode");

                GetAnswer fromZero = wait(reader.get(
                        GetRequest.into(location, 0, ByteBuffer.allocate(4096)).waiting()));
                ByteBuffer later = ByteBuffer.allocate(4096);
                GetAnswer fromLater =
                        wait(reader.get(GetRequest.into(location, 5000, later).waiting()));

                assertThat(fromZero.bytes()).isEqualTo(4096);
                assertThat(fromLater.bytes()).isEqualTo(4096);
                assertThat(Arrays.equals(later.array(), 0, 4096, DATA, 5000, 5000 + 4096))
                        .isTrue();
                List<RequestRecord> gets = server.requestLog().entries(RequestKind.GET_OBJECT);
                assertThat(gets).hasSize(2);
                assertThat(gets.get(0).header("x-amz-checksum-mode")).contains("ENABLED");
                // A checksum of the whole object checks no range that starts later: not asked for.
                assertThat(gets.get(1).header("x-amz-checksum-mode")).isEmpty();
            }
        }
    }

    @Test
    void switchedOffEveryGetGoesThroughTheSdk() throws Exception {
        server.putObjectDirectly(BUCKET, "switched-off", DATA);
        S3Settings off = TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY)
                .read(r -> r.directGetsEnabled(false))
                .build();
        try (S3ClientOwner sdkOnly = new S3ClientOwner(off)) {
            server.requestLog().clear();
            ByteBuffer dst = ByteBuffer.allocate(4096);

            GetAnswer read = wait(sdkOnly.objectClient()
                    .get(GetRequest.into(S3Location.of("s3", BUCKET, "switched-off"), 10, dst)
                            .waiting()));
            try (var stream = sdkOnly.objectClient().get(S3Location.of("s3", BUCKET, "switched-off"), 0, 100)) {
                assertThat(stream.readAllBytes()).isEqualTo(Arrays.copyOf(DATA, 100));
            }

            assertThat(read.bytes()).isEqualTo(4096);
            assertThat(S3ClientOwner.directGetsApply(off)).isFalse();
            assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                    .hasSize(2)
                    .allSatisfy(r ->
                            assertThat(r.header("User-Agent").orElse("")).doesNotContain(DirectRangedGet.USER_AGENT));
        }
    }

    @Test
    void directGetsReportTheBlockingClientsPool() throws Exception {
        server.putObjectDirectly(BUCKET, "pooled", DATA);
        server.requestLog().clear();
        try (S3ClientOwner fresh = new S3ClientOwner(settings)) {
            assertThat(fresh.requestMetrics().httpPools().blocking().client()).isEqualTo("none");

            try (var stream = fresh.objectClient().get(S3Location.of("s3", BUCKET, "pooled"), 0, 100_000)) {
                assertThat(stream.readAllBytes()).isEqualTo(Arrays.copyOf(DATA, 100_000));
            }

            // Only direct GETs were sent, and the pool they leased their connection from reported it.
            assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                    .singleElement()
                    .satisfies(r -> assertThat(r.header("User-Agent")).contains(DirectRangedGet.USER_AGENT));
            HttpPoolMetrics.Pool blocking = fresh.requestMetrics().httpPools().blocking();
            assertThat(blocking.client()).isEqualTo("Apache5");
            assertThat(blocking.leased()).isEqualTo(1);
            assertThat(blocking.max()).isEqualTo(settings.client().maxConnections());
        }
    }

    @Test
    void aStreamedRangeIsOneDirectGetReadOnTheCallersThread() throws Exception {
        server.putObjectDirectly(BUCKET, "streamed", DATA);
        server.requestLog().clear();
        S3RequestMetrics.Snapshot before = owner.requestMetrics().snapshot();
        long bytesBefore = owner.requestMetrics().bytesDownloaded();

        try (var stream = client.get(S3Location.of("s3", BUCKET, "streamed"), 1000, 201_000)) {
            assertThat(stream.objectLength()).isEqualTo(DATA.length);
            assertThat(stream.eTag()).isNotBlank();
            assertThat(stream.readAllBytes()).isEqualTo(Arrays.copyOfRange(DATA, 1000, 201_000));
        }

        assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                .singleElement()
                .satisfies(r -> assertThat(r.header("User-Agent")).contains(DirectRangedGet.USER_AGENT));
        assertThat(owner.requestMetrics().snapshot().since(before).requests()).isEqualTo(1);
        assertThat(owner.requestMetrics().bytesDownloaded() - bytesBefore).isEqualTo(200_000);
    }

    @Test
    void anAsynchronousReadRunsDirectOnABlockingReadThread() throws Exception {
        server.putObjectDirectly(BUCKET, "ahead", DATA);
        server.requestLog().clear();
        ByteBuffer dst = ByteBuffer.allocate(64 * 1024);

        GetAnswer read = wait(client.get(GetRequest.into(S3Location.of("s3", BUCKET, "ahead"), 4096, dst)));

        assertThat(read.bytes()).isEqualTo(64 * 1024);
        assertThat(Arrays.equals(dst.array(), 0, 64 * 1024, DATA, 4096, 4096 + 64 * 1024))
                .isTrue();
        assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                .singleElement()
                .satisfies(r -> assertThat(r.header("User-Agent")).contains(DirectRangedGet.USER_AGENT));
    }

    @Test
    void aCancelledAsynchronousReadAbortsItsGet() throws Exception {
        server.putObjectDirectly(BUCKET, "cancelled", DATA);
        AnswerRewriteFilter.Rule held = server.answers()
                .rewrite(RequestKind.GET_OBJECT, r -> true, 1, (request, served) -> {
                    sleep(3_000);
                    return served;
                });
        CompletableFuture<GetAnswer> read =
                client.get(GetRequest.into(S3Location.of("s3", BUCKET, "cancelled"), 0, ByteBuffer.allocate(4096)));
        // The GET is at the server, its answer held back.
        await().atMost(Duration.ofSeconds(10)).until(() -> held.applied() == 1);

        read.cancel(true);

        assertThat(read).isCancelled();
        // The next read gets a connection and its bytes at once; the aborted one is not waited for.
        long start = System.nanoTime();
        ByteBuffer next = ByteBuffer.allocate(100);
        assertThat(wait(client.get(GetRequest.into(S3Location.of("s3", BUCKET, "cancelled"), 0, next)))
                        .bytes())
                .isEqualTo(100);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2_500));
    }

    @Test
    void aRangeIntoAFileIsOneDirectGetWrittenAtItsOffset(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        server.putObjectDirectly(BUCKET, "file", DATA);
        server.requestLog().clear();
        java.nio.file.Path file = dir.resolve("state");
        java.nio.file.Files.write(file, new byte[DATA.length]);

        GetAnswer first = client.get(GetRequest.intoFile(S3Location.of("s3", BUCKET, "file"), 0, 100_000, file))
                .get();
        GetAnswer second = client.get(
                        GetRequest.intoFile(S3Location.of("s3", BUCKET, "file"), 100_000, DATA.length, file)
                                .ifMatch(first.eTag()))
                .get();

        assertThat(first.bytes()).isEqualTo(100_000);
        assertThat(first.objectLength()).isEqualTo(DATA.length);
        assertThat(second.bytes()).isEqualTo(DATA.length - 100_000);
        assertThat(java.nio.file.Files.readAllBytes(file)).isEqualTo(DATA);
        assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                .hasSize(2)
                .allSatisfy(r -> assertThat(r.header("User-Agent")).contains(DirectRangedGet.USER_AGENT));
    }

    @Test
    void aRangeIntoAFileOfAChangedObjectFailsAsThroughTheSdk(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        server.putObjectDirectly(BUCKET, "file-changed", DATA);
        java.nio.file.Path file = dir.resolve("state");
        java.nio.file.Files.write(file, new byte[0]);

        Throwable failure = catchThrowable(() -> client.get(
                        GetRequest.intoFile(S3Location.of("s3", BUCKET, "file-changed"), 0, 100, file)
                                .ifMatch("\"0123456789abcdef0123456789abcdef\""))
                .get());

        assertThat(failure).hasCauseInstanceOf(S3RequestException.class);
        assertThat(((S3RequestException) failure.getCause()).statusCode()).isEqualTo(412);
    }

    @Test
    void storesWhoseGetsNeedMoreThanASignatureStayOnThePipeline() {
        S3Settings.Builder plain = TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY);
        assertThat(S3ClientOwner.directGetsApply(plain.build())).isTrue();
        assertThat(S3ClientOwner.directGetsApply(TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY)
                        .encryption(e -> e.sseType(EncryptionSettings.SseType.SSE_C)
                                .sseCustomerKey(Secret.ofNullable("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")))
                        .build()))
                .isFalse();
        assertThat(S3ClientOwner.directGetsApply(TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY)
                        .client(c -> c.requesterPays(true))
                        .build()))
                .isFalse();
    }

    /** Holds a server answer back: a slow server, not a wait for a condition. */
    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static GetAnswer wait(CompletableFuture<GetAnswer> read) throws Exception {
        try {
            return read.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }
}
