package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.aws.S3Errors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The SDK really publishes what {@link S3RequestMetrics} counts: error answers of the real server
 * show up as throttled or failed attempts, with the retry strategy's backoffs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3RequestMetricsS3ProxyTest {

    private static final String BUCKET = "metrics";

    private EmbeddedS3Server server;
    private S3ClientOwner owner;

    @BeforeAll
    void start() {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
        owner = new S3ClientOwner(TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY)
                .build());
    }

    @AfterAll
    void stop() throws Exception {
        try (EmbeddedS3Server stopping = server) {
            owner.close();
        }
    }

    @Test
    void throttledAndFailedAttemptsAreCountedWithTheirBackoffs() throws Exception {
        S3RequestMetrics.Snapshot before = owner.requestMetrics().snapshot();
        server.failNext(RequestKind.PUT_OBJECT, 2, 503, "SlowDown");
        put("throttled");
        server.failNext(RequestKind.PUT_OBJECT, 2, 500, "InternalError");
        put("failing");
        server.failNext(RequestKind.PUT_OBJECT, 1, 403, "AccessDenied");
        Throwable denied = catchThrowable(() -> put("denied"));

        S3RequestMetrics.Snapshot since = owner.requestMetrics().snapshot().since(before);

        assertThat(denied).hasRootCauseInstanceOf(software.amazon.awssdk.services.s3.model.S3Exception.class);
        assertThat(since.requests()).isEqualTo(3);
        assertThat(since.failedRequests()).isEqualTo(1);
        assertThat(since.attempts()).isEqualTo(7);
        assertThat(since.retries("PutObject")).isEqualTo(4);
        assertThat(since.throttledAttempts()).isEqualTo(2);
        assertThat(since.errorAnswerAttempts()).as("two 500 and one 403").isEqualTo(3);
        assertThat(since.connectionFailedAttempts()).isZero();
        assertThat(since.timedOutAttempts()).isZero();
        S3RequestMetrics.BackoffRange throttled = since.backoffAfterThrottling();
        S3RequestMetrics.BackoffRange failed = since.backoffAfterOtherFailures();
        assertThat(throttled.retries()).isEqualTo(2);
        assertThat(failed.retries()).isEqualTo(2);
        assertThat(throttled.shortestMillis())
                .as("throttled retries back off longer than retries after server errors")
                .isGreaterThanOrEqualTo(S3RetryStrategy.THROTTLING_BASE_DELAY_MS / 2)
                .isGreaterThan(failed.longestMillis());
        assertThat(failed.longestMillis()).isLessThanOrEqualTo(2 * S3RetryStrategy.BASE_DELAY_MS);
    }

    @Test
    @Timeout(60)
    void eachOperationCountsItsAttemptsByTheErrorTypeTheSdkGivesAndItsLatency() throws Exception {
        // An owner of its own: the backoff ranges of the shared one must see only the test above.
        try (S3ClientOwner own = new S3ClientOwner(TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY)
                .build())) {
            server.failNext(RequestKind.PUT_OBJECT, 1, 503, "SlowDown");
            put(own, "per-operation-throttled");
            server.failNext(RequestKind.PUT_OBJECT, 1, 500, "InternalError");
            put(own, "per-operation-failing");
            server.failNext(RequestKind.PUT_OBJECT, 1, 403, "AccessDenied");
            catchThrowable(() -> put(own, "per-operation-denied"));

            OperationMetrics putObject = own.requestMetrics().operations().get("PutObject");
            assertThat(putObject.requests()).isEqualTo(3);
            assertThat(putObject.failedRequests()).isEqualTo(1);
            assertThat(putObject.attempts()).isEqualTo(5);
            assertThat(putObject.throttledAttempts()).as("503 SlowDown").isEqualTo(1);
            assertThat(putObject.errorAnswerAttempts())
                    .as("500 InternalError and 403 AccessDenied")
                    .isEqualTo(2);
            assertThat(putObject.otherErrorAttempts() + putObject.ioErrorAttempts() + putObject.timedOutAttempts())
                    .isZero();
            assertThat(putObject.latency().count()).isEqualTo(3);
            assertThat(putObject.latency().sumSeconds())
                    .as("the throttled put waited its backoff")
                    .isGreaterThanOrEqualTo(S3RetryStrategy.THROTTLING_BASE_DELAY_MS / 2 / 1000.0);
        }
    }

    @Test
    @Timeout(60)
    void theBytesOfObjectBodiesReceivedAreCounted() throws Exception {
        try (S3ClientOwner own = new S3ClientOwner(TestSettings.forServer(server, ClientSettings.HttpClientType.CRT)
                .build())) {
            byte[] data = new byte[300_000];
            new java.util.Random(7).nextBytes(data);
            S3Location location = S3Location.of("s3", BUCKET, "downloaded");
            S3Errors.await(
                    own.objectClient().put(location, ByteBuffer.wrap(data), WriteCondition.NONE),
                    "PutObject",
                    location);

            try (RangeStream range = own.objectClient().get(location, 1_000, 201_000)) {
                assertThat(range.readAllBytes()).hasSize(200_000);
            }

            assertThat(own.requestMetrics().bytesDownloaded()).isEqualTo(200_000);
            assertThat(own.requestMetrics().operations().get("GetObject").requests())
                    .isEqualTo(1);
        }
    }

    @Test
    @Timeout(60)
    void theBytesOfAStreamedRangeOnTheBlockingClientAreCounted() throws Exception {
        try (S3ClientOwner own = new S3ClientOwner(TestSettings.forServer(server, ClientSettings.HttpClientType.CRT)
                .build())) {
            int length = (int) SdkObjectClient.STREAMED_RANGE_BYTES + 300_000;
            byte[] data = new byte[length + 5_000];
            new java.util.Random(8).nextBytes(data);
            S3Location location = S3Location.of("s3", BUCKET, "streamed");
            S3Errors.await(
                    own.objectClient().put(location, ByteBuffer.wrap(data), WriteCondition.NONE),
                    "PutObject",
                    location);
            long before = own.requestMetrics().bytesDownloaded();

            // A range this long is streamed on the blocking client.
            try (RangeStream range = own.objectClient().get(location, 5_000, 5_000L + length)) {
                assertThat(range.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(data, 5_000, data.length));
            }

            assertThat(own.requestMetrics().bytesDownloaded() - before).isEqualTo(length);
            assertThat(own.requestMetrics().operations().get("GetObject").requests())
                    .isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(ClientSettings.HttpClientType.class)
    @Timeout(60)
    void eachOperationTellsWhereItsAttemptsTimeWent(ClientSettings.HttpClientType http) throws Exception {
        try (S3ClientOwner own =
                new S3ClientOwner(TestSettings.forServer(server, http).build())) {
            byte[] data = new byte[2_000_000];
            new java.util.Random(11).nextBytes(data);
            S3Location location = S3Location.of("s3", BUCKET, "timed-" + http);
            S3Errors.await(
                    own.objectClient().put(location, ByteBuffer.wrap(data), WriteCondition.NONE),
                    "PutObject",
                    location);
            for (int i = 0; i < 3; i++) {
                own.objectClient()
                        .readInto(location, i * 100_000L, ByteBuffer.allocate(1_500_000))
                        .get(30, java.util.concurrent.TimeUnit.SECONDS);
            }

            OperationMetrics get = own.requestMetrics().operations().get("GetObject");
            assertThat(get.firstBytes()).isPositive();
            assertThat(get.timeToFirstByteNanos()).isPositive();
            assertThat(get.bodies()).isPositive();
            assertThat(get.bodyNanos()).isPositive();
            assertThat(get.connectionWaitNanos()).isNotNegative();
            assertThat(get.toString()).contains("first byte").contains("body");
            // The asynchronous client's pool as it reported it with the last request, within its maximum.
            HttpPoolMetrics.Pool pool = own.requestMetrics().httpPools().async();
            assertThat(pool.client()).isNotEqualTo("none");
            assertThat(pool.max()).isPositive();
            assertThat(pool.leased()).isBetween(0, pool.max());
            assertThat(pool.idle()).isBetween(0, pool.max());
        }
    }

    private void put(String key) throws Exception {
        put(owner, key);
    }

    private static void put(S3ClientOwner owner, String key) throws Exception {
        S3Location location = S3Location.of("s3", BUCKET, key);
        ByteBuffer body = ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8));
        S3Errors.await(owner.objectClient().put(location, body, WriteCondition.NONE), "PutObject", location);
    }
}
