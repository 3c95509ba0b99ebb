package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.transfer.sdk.S3RequestMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Issue 6, throttling storm: 30% of all requests are answered 503 SlowDown while 16 writers upload
 * 64 MiB each at the same time. Every file ends up with exactly its bytes, no upload is left, and the
 * filesystem's request metrics count every throttled attempt the proxy caused, each followed by a
 * retry that waited the throttling backoff.
 *
 * <p>The throttling backoff starts at {@value #THROTTLING_BASE_MS} ms instead of 1 s (at most 2 s
 * instead of 20 s), so that a request throttled five times in a row does not hold the suite for half a
 * minute; the default figures are pinned by the retry strategy's own tests and the other fault suites.
 */
class ThrottlingStormTest {

    private static final int WRITERS = 16;
    private static final int CHUNK = 1024 * 1024;
    private static final int CHUNKS_PER_FILE = 64;
    private static final double THROTTLED_SHARE = 0.30;
    private static final long THROTTLING_BASE_MS = 200;

    @Test
    void sixteenWritersOf64MibFinishExactlyUnder30PercentSlowDown() throws Exception {
        String bucket = SharedS3ProxyTarget.bucket();
        Path dir = new Path("s3://" + bucket + "/ThrottlingStormTest/" + UUID.randomUUID());
        try (FaultInjectingProxy proxy =
                        new FaultInjectingProxy(SharedS3ProxyTarget.server().endpoint());
                ProxiedFileSystem fileSystem = ProxiedFileSystem.create(
                        proxy,
                        Map.of(
                                "s3.upload.min.part.size", "5mb",
                                "s3.upload.max.concurrent.uploads", "3"),
                        s3 -> s3.client(c -> c.throttlingRetryBaseDelay(Duration.ofMillis(THROTTLING_BASE_MS))
                                .retryMaxDelay(Duration.ofSeconds(2))));
                S3Client s3 = SharedS3ProxyTarget.sdkClient()) {
            FaultRule storm = proxy.failRandomly(null, THROTTLED_SHARE, 6, Fault.slowDown());
            S3RequestMetrics.Snapshot before = fileSystem.metrics();

            ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
            try {
                List<Future<?>> written = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    Path file = new Path(dir, "writer-" + w);
                    int writer = w;
                    written.add(writers.submit(() -> write(fileSystem, file, writer)));
                }
                for (Future<?> future : written) {
                    future.get(150, TimeUnit.SECONDS);
                }
            } finally {
                writers.shutdownNow();
            }
            proxy.clear();
            S3RequestMetrics.Snapshot since = fileSystem.metrics().since(before);

            for (int w = 0; w < WRITERS; w++) {
                assertExactBytes(s3, bucket, key(dir) + "/writer-" + w, w);
            }
            assertThat(s3.listMultipartUploads(b -> b.bucket(bucket).prefix(key(dir) + "/"))
                            .uploads())
                    .isEmpty();
            assertThat(storm.applied()).as("requests throttled by the proxy").isGreaterThan(50);
            assertThat(since.throttledAttempts())
                    .as("throttled attempts counted: %s", since)
                    .isEqualTo(storm.applied());
            assertThat(since.retries()).as("retries counted: %s", since).isEqualTo(storm.applied());
            assertThat(since.failedRequests())
                    .as("the If-None-Match probe's conditional completion onto its own object, refused (412)")
                    .isEqualTo(1);
            assertThat(since.backoffAfterThrottling().shortestMillis())
                    .as("half jitter: every throttled retry waits at least half the base")
                    .isGreaterThanOrEqualTo(THROTTLING_BASE_MS / 2);
            System.out.printf(
                    "Throttling storm: %d of %d attempts answered 503 SlowDown; %s%n",
                    storm.applied(), since.attempts(), since);
        }
    }

    private static Void write(ProxiedFileSystem fileSystem, Path file, int writer) throws IOException {
        try (FSDataOutputStream out = fileSystem.fs().create(file, WriteMode.NO_OVERWRITE)) {
            for (int chunk = 0; chunk < CHUNKS_PER_FILE; chunk++) {
                out.write(chunk(writer, chunk));
            }
        }
        return null;
    }

    private static void assertExactBytes(S3Client s3, String bucket, String key, int writer) throws IOException {
        try (InputStream in = s3.getObject(b -> b.bucket(bucket).key(key))) {
            for (int chunk = 0; chunk < CHUNKS_PER_FILE; chunk++) {
                byte[] read = in.readNBytes(CHUNK);
                assertThat(Arrays.equals(read, chunk(writer, chunk)))
                        .as("chunk %d of %s", chunk, key)
                        .isTrue();
            }
            assertThat(in.read()).as("end of %s", key).isEqualTo(-1);
        }
    }

    /** The bytes of one MiB of one writer's file, the same every time they are asked for. */
    private static byte[] chunk(int writer, int chunk) {
        byte[] bytes = new byte[CHUNK];
        new Random(writer * 1_000_003L + chunk).nextBytes(bytes);
        return bytes;
    }

    private static String key(Path path) {
        return path.toUri().getPath().substring(1);
    }
}
