package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The fault kinds a soak adds to 500, 503 and resets before the answer: connections closed half-way through a
 * body (a GET's answer, a PUT's request body) and answers held back past a client's attempt timeout.
 */
@Timeout(60)
class MidBodyAndSlowFaultsTest {

    private static final String BUCKET = "cut";
    private static final byte[] BODY = "0123456789abcdef".repeat(8192).getBytes(StandardCharsets.US_ASCII);

    @Test
    void aGetIsCutHalfWayThroughItsAnswer() throws Exception {
        try (EmbeddedS3Server server = EmbeddedS3Server.builder()
                        .bucket(BUCKET)
                        .faultProfile(new FaultProfile(0, 0, 1).withMidBodyResets(1))
                        .start();
                S3Client s3 = client(server, 1, null)) {
            server.putObjectDirectly(BUCKET, "object", BODY);

            assertThatThrownBy(() -> {
                        try (InputStream in = s3.getObject(b -> b.bucket(BUCKET).key("object"))) {
                            in.readAllBytes();
                        }
                    })
                    .isInstanceOfAny(SdkClientException.class, java.io.IOException.class);
            assertThat(server.injectedFaults().midBodyResets()).isEqualTo(1);
        }
    }

    @Test
    void aPutIsCutHalfWayThroughItsBodyAndNothingIsStored() throws Exception {
        try (EmbeddedS3Server server = EmbeddedS3Server.builder()
                        .bucket(BUCKET)
                        .faultProfile(new FaultProfile(0, 0, 1).withMidBodyResets(1))
                        .start();
                S3Client s3 = client(server, 1, null)) {
            assertThatThrownBy(() -> s3.putObject(b -> b.bucket(BUCKET).key("put"), RequestBody.fromBytes(BODY)))
                    .isInstanceOf(SdkClientException.class);

            assertThat(server.injectedFaults().midBodyResets()).isEqualTo(1);
            assertThat(Files.exists(server.baseDir().resolve(BUCKET).resolve("put")))
                    .isFalse();
        }
    }

    @Test
    void aSlowAnswerOutlastsTheAttemptTimeoutAndIsServedToAPatientClient() throws Exception {
        FaultProfile slow = new FaultProfile(0, 0, 1).withSlowAnswers(1, 1500);
        try (EmbeddedS3Server server = EmbeddedS3Server.builder()
                        .bucket(BUCKET)
                        .faultProfile(slow)
                        .start();
                S3Client impatient = client(server, 1, Duration.ofMillis(300));
                S3Client patient = client(server, 1, null)) {
            server.putObjectDirectly(BUCKET, "object", BODY);
            long before = System.currentTimeMillis();

            assertThatThrownBy(() -> impatient.headObject(b -> b.bucket(BUCKET).key("object")))
                    .isInstanceOf(ApiCallAttemptTimeoutException.class);
            long start = System.nanoTime();
            assertThat(patient.headObject(b -> b.bucket(BUCKET).key("object")).contentLength())
                    .isEqualTo(BODY.length);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
            assertThat(server.injectedFaults().slowAnswers()).isEqualTo(2);
            assertThat(server.slowAnswerTimes())
                    .hasSize(2)
                    .allSatisfy(t -> assertThat(t).isBetween(before, System.currentTimeMillis()))
                    .isSorted();
        }
    }

    @Test
    void theNewKindsTakeTheirShareOfTheDrawsAndLeaveTheOldOnesAsTheyWere() {
        RandomFaults both = new RandomFaults(new FaultProfile(0, 0, 5, 0.5, 0.5, 10));
        Set<RandomFaults.Fault> seen = EnumSet.noneOf(RandomFaults.Fault.class);
        for (int i = 0; i < 200; i++) {
            seen.add(both.next());
        }
        assertThat(seen).containsExactlyInAnyOrder(RandomFaults.Fault.MID_BODY_RESET, RandomFaults.Fault.SLOW_ANSWER);

        RandomFaults before = new RandomFaults(new FaultProfile(0.1, 0.02, 9));
        RandomFaults after = new RandomFaults(new FaultProfile(0.1, 0.02, 9, 0, 0, 0));
        for (int i = 0; i < 500; i++) {
            assertThat(after.next()).isEqualTo(before.next());
        }
    }

    @Test
    void ratesTogetherAboveOneAndNegativeHoldBacksAreRejected() {
        assertThatThrownBy(() -> new FaultProfile(0.5, 0.2, 1, 0.2, 0.2, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("errorRate + resetRate + midBodyResetRate + slowRate must be at most 1");
        assertThatThrownBy(() -> new FaultProfile(0, 0, 1, 0, 0.1, -1))
                .hasMessage("slowAnswerMillis must not be negative, was -1");
        assertThat(FaultProfile.of(0.03)
                        .withMidBodyResets(0.005)
                        .withSlowAnswers(0.002, 12000)
                        .toString())
                .isEqualTo("errors 3.00%, resets 0.50%, seed 42, mid-body resets 0.50%, slow answers 0.20% (12000 ms)");
    }

    private static S3Client client(EmbeddedS3Server server, int attempts, Duration attemptTimeout) {
        return S3Client.builder()
                .endpointOverride(server.endpoint())
                .region(Region.of(EmbeddedS3Server.REGION))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
                .overrideConfiguration(c -> {
                    c.retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                            .maxAttempts(attempts)
                            .build());
                    if (attemptTimeout != null) {
                        c.apiCallAttemptTimeout(attemptTimeout);
                    }
                })
                .build();
    }
}
