package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The {@code wan} profile delivers what the benchmarks rely on: 20 ms once per
 * request, each body at 50 MB/s. Bounds are wide enough for a shared 2-core machine, narrow enough
 * to fail a pacer that loses its rate to sleep rounding (S3Proxy's own delivers about 7 MB/s).
 *
 * <p>On a busy machine noise only adds time, never removes it ({@link FastestOf}): every attempt must
 * take at least the profile's time (less the pacer's 1 ms slack), and the fastest of up to {@value
 * #ATTEMPTS} attempts must be within three times the profile's time for a body (a 7 MB/s pacer needs
 * seven times), which a CI machine running other test JVMs on its 2 cores still meets.
 */
class WanProfileTest {

    private static final String BUCKET = "wan";
    private static final int FIFTY_MB = 50_000_000;
    static final int ATTEMPTS = 5;

    private static EmbeddedS3Server server;
    private static S3Client s3;
    private static byte[] body;

    @BeforeAll
    static void start() {
        server = EmbeddedS3Server.builder()
                .profile(NetworkProfile.WAN)
                .bucket(BUCKET)
                .start();
        s3 = TestClients.s3(server);
        body = new byte[FIFTY_MB];
        // Warm the connection, the SDK and the server's JIT so the timings measure the profile.
        s3.putObject(b -> b.bucket(BUCKET).key("warm"), RequestBody.fromBytes(new byte[1_000_000]));
        s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("warm"));
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
        server.close();
    }

    @Test
    void putOf50MbTakesAboutOneSecond() {
        assertFastestWithin(
                Duration.ofMillis(1010),
                Duration.ofMillis(3000),
                () -> timed(() -> s3.putObject(b -> b.bucket(BUCKET).key("fifty"), RequestBody.fromBytes(body))));
    }

    @Test
    void getOf50MbTakesAboutOneSecond() {
        s3.putObject(b -> b.bucket(BUCKET).key("fifty-get"), RequestBody.fromBytes(body));

        assertFastestWithin(
                Duration.ofMillis(1010),
                Duration.ofMillis(3000),
                () -> timed(() -> assertThat(
                                s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("fifty-get"))
                                        .asByteArray())
                        .hasSize(FIFTY_MB)));
    }

    /**
     * The added latency is measured against the same requests on a {@code lan} server, so the
     * client's and S3Proxy's own processing time (several ms per request when the 2 cores are busy)
     * does not count against the profile.
     */
    @Test
    void hundredHeadsInSequenceTakeAboutTwoSecondsMoreThanOnLan() throws Exception {
        s3.putObject(b -> b.bucket(BUCKET).key("small"), RequestBody.fromString("x"));
        server.requestLog().clear();
        try (EmbeddedS3Server lan = EmbeddedS3Server.builder().bucket(BUCKET).start();
                S3Client lanClient = TestClients.s3(lan)) {
            lanClient.putObject(b -> b.bucket(BUCKET).key("small"), RequestBody.fromString("x"));
            hundredHeads(lanClient);

            int[] rounds = {0};

            // Each round's wan time must reach 2 s; noise in the lan time may shrink a difference.
            assertFastestWithin(Duration.ZERO, Duration.ofMillis(2600), () -> {
                rounds[0]++;
                Duration onLan = timed(() -> hundredHeads(lanClient));
                Duration onWan = timed(() -> hundredHeads(s3));
                assertThat(onWan).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
                return onWan.minus(onLan);
            });

            assertThat(server.requestLog().count(RequestKind.HEAD_OBJECT)).isEqualTo(100L * rounds[0]);
            // Every HEAD waited its 20 ms on the server: the serve time per kind includes the latency.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> server.requestLog().serveNanos().getOrDefault(RequestKind.HEAD_OBJECT, 0L)
                            >= rounds[0] * Duration.ofSeconds(2).toNanos());
        }
    }

    @Test
    void customProfileAppliesItsOwnFigures() throws Exception {
        NetworkProfile slow = NetworkProfile.wan(Duration.ofMillis(100), 10_000_000L);
        try (EmbeddedS3Server custom =
                        EmbeddedS3Server.builder().profile(slow).bucket(BUCKET).start();
                S3Client client = TestClients.s3(custom)) {
            client.headBucket(b -> b.bucket(BUCKET));

            assertFastestWithin(
                    Duration.ofMillis(100),
                    Duration.ofMillis(300),
                    () -> timed(() -> client.headBucket(b -> b.bucket(BUCKET))));
            assertFastestWithin(
                    Duration.ofMillis(590),
                    Duration.ofMillis(1800),
                    () -> timed(() -> client.putObject(
                            b -> b.bucket(BUCKET).key("five"), RequestBody.fromBytes(new byte[5_000_000]))));
        }
    }

    private static void hundredHeads(S3Client client) {
        for (int i = 0; i < 100; i++) {
            client.headObject(b -> b.bucket(BUCKET).key("small"));
        }
    }

    private static void assertFastestWithin(Duration low, Duration high, Supplier<Duration> measurement) {
        new FastestOf(ATTEMPTS).assertWithin(low, high, measurement);
    }

    private static Duration timed(Runnable action) {
        long start = System.nanoTime();
        action.run();
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
