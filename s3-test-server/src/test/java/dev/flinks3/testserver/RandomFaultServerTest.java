package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.HttpURLConnection;
import java.net.URL;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A server with a fault profile answers signed requests with 500, 503 or a closed connection, which
 * the AWS SDK retries, and never fails unsigned requests.
 */
class RandomFaultServerTest {

    private static final String BUCKET = "faulty";
    private static final FaultProfile PROFILE = new FaultProfile(0.1, 0.03, 3);

    @Test
    void theSdkRetriesThroughInjectedFaultsAndTheServerCountsThem() throws Exception {
        try (EmbeddedS3Server server = EmbeddedS3Server.builder()
                        .bucket(BUCKET)
                        .faultProfile(PROFILE)
                        .start();
                S3Client s3 = patientClient(server)) {
            for (int i = 0; i < 60; i++) {
                String key = "object-" + i;
                s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString(key));
                assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asUtf8String())
                        .isEqualTo(key);
            }

            InjectedFaults injected = server.injectedFaults();
            assertThat(injected.internalErrors()).isPositive();
            assertThat(injected.slowDowns()).isPositive();
            assertThat(injected.resets()).isPositive();
            assertThat(server.faultProfile()).isEqualTo(PROFILE);
        }
    }

    /** Ten attempts: with 13% of requests failing, three attempts would run out now and then. */
    private static S3Client patientClient(EmbeddedS3Server server) {
        return S3Client.builder()
                .endpointOverride(server.endpoint())
                .region(Region.of(EmbeddedS3Server.REGION))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(10)
                        .build()))
                .build();
    }

    @Test
    void unsignedRequestsAreNeverFailed() throws Exception {
        try (EmbeddedS3Server server = EmbeddedS3Server.builder()
                .faultProfile(new FaultProfile(0.5, 0.5, 3))
                .start()) {
            URL counts = server.endpoint().resolve("/__flinks3/requests").toURL();
            for (int i = 0; i < 20; i++) {
                // A connection per request: a kept-alive one would hold up the server's stop.
                HttpURLConnection connection = (HttpURLConnection) counts.openConnection();
                connection.setRequestProperty("Connection", "close");
                assertThat(connection.getResponseCode()).isEqualTo(200);
                connection.getInputStream().close();
                connection.disconnect();
            }
            assertThat(server.injectedFaults()).isEqualTo(InjectedFaults.NONE);
        }
    }

    @Test
    void withoutAProfileNothingIsInjected() throws Exception {
        try (EmbeddedS3Server server = EmbeddedS3Server.builder().start()) {
            assertThat(server.faultProfile()).isNull();
            assertThat(server.injectedFaults()).isEqualTo(InjectedFaults.NONE);
        }
    }
}
