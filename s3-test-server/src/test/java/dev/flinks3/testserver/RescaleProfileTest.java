package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The {@code rescale} profile delivers what the rescale benchmark relies on: 80 ms once per request (40 ms
 * each way) and one 1 Gbit/s (125 MB/s) link that all connections share, so four downloads at once take as
 * long as one of their summed size. Lower bounds are strict (nothing makes a paced byte early; the shared
 * check's lower bound is what fails a per-connection pacer, which would finish four 12.5 MB bodies in 0.1 s);
 * upper bounds are the fastest of {@value WanProfileTest#ATTEMPTS} attempts, wide for a loaded machine.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RescaleProfileTest {

    private static final String BUCKET = "rescale";
    private static final int BODY = 12_500_000;
    private static final int CONNECTIONS = 4;

    private static EmbeddedS3Server server;
    private static S3Client s3;
    private static ExecutorService pool;

    @BeforeAll
    static void start() {
        server = EmbeddedS3Server.builder()
                .profile(NetworkProfile.RESCALE)
                .bucket(BUCKET)
                .start();
        s3 = TestClients.s3(server);
        pool = Executors.newFixedThreadPool(CONNECTIONS);
        for (int i = 0; i < CONNECTIONS; i++) {
            int index = i;
            s3.putObject(b -> b.bucket(BUCKET).key("part-" + index), RequestBody.fromBytes(new byte[BODY]));
        }
        s3.putObject(b -> b.bucket(BUCKET).key("small"), RequestBody.fromString("x"));
        // Warm every connection of the pool, the SDK and the server's JIT.
        concurrentGets();
    }

    @AfterAll
    static void stop() throws Exception {
        pool.shutdownNow();
        s3.close();
        server.close();
    }

    @Test
    void namedRescaleIsTheSharedGigabitProfile() {
        NetworkProfile profile = NetworkProfile.named("RESCALE");
        assertThat(profile).isSameAs(NetworkProfile.RESCALE);
        assertThat(profile.latency()).isEqualTo(Duration.ofMillis(80));
        assertThat(profile.bytesPerSecond()).isZero();
        assertThat(profile.sharedBytesPerSecond()).isEqualTo(125_000_000L);
        assertThat(profile.isUnlimited()).isFalse();
    }

    /** Against the same requests on a {@code lan} server, so the client's and S3Proxy's own time does not count. */
    @Test
    void tenHeadsInSequenceTakeAboutEightHundredMillisecondsMoreThanOnLan() throws Exception {
        try (EmbeddedS3Server lan = EmbeddedS3Server.builder().bucket(BUCKET).start();
                S3Client lanClient = TestClients.s3(lan)) {
            lanClient.putObject(b -> b.bucket(BUCKET).key("small"), RequestBody.fromString("x"));
            tenHeads(lanClient);
            assertFastestWithin(Duration.ZERO, Duration.ofMillis(1200), () -> {
                Duration onLan = timed(() -> tenHeads(lanClient));
                Duration onRescale = timed(() -> tenHeads(s3));
                assertThat(onRescale).isGreaterThanOrEqualTo(Duration.ofMillis(800));
                return onRescale.minus(onLan);
            });
        }
    }

    /** 12.5 MB at 125 MB/s is 0.1 s, after the 80 ms of the request. */
    @Test
    void oneGetOfTwelveAndAHalfMegabytesTakesAboutOneHundredEightyMilliseconds() {
        assertFastestWithin(
                Duration.ofMillis(175),
                Duration.ofMillis(600),
                () -> timed(() -> assertThat(
                                s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("part-0"))
                                        .asByteArray())
                        .hasSize(BODY)));
    }

    /** Four bodies at once share the link: 50 MB at 125 MB/s is 0.4 s, not the 0.1 s of four separate links. */
    @Test
    void fourConcurrentGetsShareOneLink() {
        assertFastestWithin(Duration.ofMillis(470), Duration.ofMillis(2500), RescaleProfileTest::concurrentGets);
    }

    /**
     * Uploads share their own link: four PUTs of 12.5 MB at once take at least 0.4 s too. The upper bound is
     * wider than for GETs: S3Proxy hashes and writes each upload on this machine's CPU and disk (2.4 to 5.8 s
     * measured on a loaded 2-core machine); {@link SharedBandwidthPacerTest} checks the pacing alone.
     */
    @Test
    void fourConcurrentPutsShareOneLink() {
        assertFastestWithin(
                Duration.ofMillis(470),
                Duration.ofMillis(8000),
                () -> timed(() -> {
                    List<Future<?>> puts = new ArrayList<>();
                    for (int i = 0; i < CONNECTIONS; i++) {
                        int index = i;
                        puts.add(pool.submit(() -> s3.putObject(
                                b -> b.bucket(BUCKET).key("put-" + index), RequestBody.fromBytes(new byte[BODY]))));
                    }
                    awaitAll(puts);
                }));
    }

    private static Duration concurrentGets() {
        return timed(() -> {
            List<Future<?>> gets = new ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                int index = i;
                gets.add(pool.submit(() -> assertThat(
                                s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("part-" + index))
                                        .asByteArray())
                        .hasSize(BODY)));
            }
            awaitAll(gets);
        });
    }

    private static void awaitAll(List<Future<?>> futures) {
        for (Future<?> future : futures) {
            try {
                future.get(1, TimeUnit.MINUTES);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    private static void tenHeads(S3Client client) {
        for (int i = 0; i < 10; i++) {
            client.headObject(b -> b.bucket(BUCKET).key("small"));
        }
    }

    private static void assertFastestWithin(Duration low, Duration high, Supplier<Duration> measurement) {
        new FastestOf(WanProfileTest.ATTEMPTS).assertWithin(low, high, measurement);
    }

    private static Duration timed(Runnable action) {
        long start = System.nanoTime();
        action.run();
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
