package dev.flinks3.transfer.sdk;

import static dev.flinks3.transfer.sdk.SdkObjectClientS3ProxyTest.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.NetworkProfile;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.TestSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The per-attempt timeout bounds the wait for a response, not the time a caller takes to read a
 * ranged GET's body: a read-ahead window on a slow link must not be cut off.
 */
class SlowBodyS3ProxyTest {

    private static final String BUCKET = "slow-body";
    private static final int BYTES_PER_SECOND = 2_000_000;
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);
    private static EmbeddedS3Server server;

    @BeforeAll
    static void start() {
        server = EmbeddedS3Server.builder()
                .bucket(BUCKET)
                .profile(NetworkProfile.wan(Duration.ZERO, BYTES_PER_SECOND))
                .start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @ParameterizedTest
    @EnumSource(ClientSettings.HttpClientType.class)
    void bodyStreamingLongerThanTheAttemptTimeoutIsReadCompletely(ClientSettings.HttpClientType httpClient)
            throws IOException {
        byte[] data = randomBytes(4 * BYTES_PER_SECOND);
        String key = httpClient + "/slow";
        // Written into the filesystem backend directly: a PUT would be paced as well.
        Path bucketDir = server.baseDir().resolve(BUCKET);
        Files.createDirectories(bucketDir.resolve(httpClient.name()));
        Files.write(bucketDir.resolve(key), data);
        Files.write(bucketDir.resolve(key + "-small"), new byte[1]);
        S3Settings settings = TestSettings.forServer(server, httpClient)
                .client(c -> c.apiCallAttemptTimeout(ATTEMPT_TIMEOUT))
                .build();
        try (S3ClientOwner owner = new S3ClientOwner(settings)) {
            ObjectClient client = owner.objectClient();
            // Connects and warms up client and server, so the slow GET's headers come at once.
            try (RangeStream small = client.get(S3Location.of("s3", BUCKET, key + "-small"), 0, 1)) {
                assertThat(small.readAllBytes()).hasSize(1);
            }
            server.requestLog().clear();
            try (RangeStream body = client.get(S3Location.of("s3", BUCKET, key), 0, data.length)) {
                long start = System.nanoTime();
                assertThat(body.readAllBytes()).isEqualTo(data);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(ATTEMPT_TIMEOUT);
            }
            assertThat(server.requestLog().count(RequestKind.GET_OBJECT))
                    .as("one attempt")
                    .isEqualTo(1);
        }
    }
}
