package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.ClientSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.retries.api.RetryToken;
import software.amazon.awssdk.retries.api.TokenAcquisitionFailedException;
import software.amazon.awssdk.services.s3.model.S3Exception;

public class S3RetryStrategyTest {

    private final RetryStrategy strategy =
            S3RetryStrategy.create(ClientSettings.builder().maxRetries(4).build());

    @Test
    void attemptsAreRetriesPlusOne() {
        assertThat(strategy.maxAttempts()).isEqualTo(5);
    }

    @Test
    void throttlingWaitsAtLeastHalfTheThrottlingBaseDelay() {
        for (int i = 0; i < 50; i++) {
            for (S3Exception throttled : new S3Exception[] {
                s3Error(503, "SlowDown"),
                s3Error(429, "TooManyRequests"),
                s3Error(503, "ServiceUnavailable"),
                headError(503)
            }) {
                assertThat(firstRetryDelay(throttled))
                        .as("%s", throttled)
                        .isGreaterThanOrEqualTo(Duration.ofMillis(S3RetryStrategy.THROTTLING_BASE_DELAY_MS / 2));
            }
        }
    }

    @Test
    void serverErrorsRetrySoonerThanThrottling() {
        for (int i = 0; i < 50; i++) {
            assertThat(firstRetryDelay(s3Error(500, "InternalError")))
                    .isLessThanOrEqualTo(Duration.ofMillis(2 * S3RetryStrategy.BASE_DELAY_MS));
            assertThat(firstRetryDelay(headError(500)))
                    .isLessThanOrEqualTo(Duration.ofMillis(2 * S3RetryStrategy.BASE_DELAY_MS));
        }
    }

    @Test
    void failuresAreClassifiedAsTheMetricsCountThem() {
        assertThat(S3RetryStrategy.classify(s3Error(503, "SlowDown"))).isEqualTo(S3RetryStrategy.Failure.THROTTLED);
        assertThat(S3RetryStrategy.classify(headError(503))).isEqualTo(S3RetryStrategy.Failure.THROTTLED);
        assertThat(S3RetryStrategy.classify(s3Error(429, "TooManyRequests")))
                .isEqualTo(S3RetryStrategy.Failure.THROTTLED);
        assertThat(S3RetryStrategy.classify(s3Error(500, "InternalError")))
                .isEqualTo(S3RetryStrategy.Failure.ERROR_ANSWER);
        assertThat(S3RetryStrategy.classify(s3Error(403, "AccessDenied")))
                .isEqualTo(S3RetryStrategy.Failure.ERROR_ANSWER);
        assertThat(S3RetryStrategy.classify(ApiCallAttemptTimeoutException.create(1000)))
                .isEqualTo(S3RetryStrategy.Failure.TIMED_OUT);
        assertThat(S3RetryStrategy.classify(SdkClientException.create("reset", new java.io.IOException("reset"))))
                .isEqualTo(S3RetryStrategy.Failure.CONNECTION);
    }

    @Test
    void networkErrorsAreRetried() {
        SdkClientException reset = SdkClientException.builder()
                .message("connection reset")
                .cause(new java.io.IOException("Connection reset by peer"))
                .build();
        assertThat(firstRetryDelay(reset)).isNotNull();
    }

    @Test
    void bodiesCorruptedInFlightAreRetried() {
        assertThat(firstRetryDelay(s3Error(400, "BadDigest"))).isNotNull();
        assertThat(firstRetryDelay(s3Error(400, "XAmzContentSHA256Mismatch"))).isNotNull();
    }

    @Test
    void aBodyAnsweredAsCorruptedIsSentAgainOnceOnly() {
        RetryToken token = strategy.acquireInitialToken(AcquireInitialTokenRequest.create("s3"))
                .token();
        token = refresh(token, s3Error(400, "XAmzContentSHA256Mismatch"));
        token = refresh(token, s3Error(500, "InternalError"));
        RetryToken afterOneCorruption = token;

        assertThatThrownBy(() -> refresh(afterOneCorruption, s3Error(400, "BadDigest")))
                .isInstanceOf(TokenAcquisitionFailedException.class)
                .hasMessageContaining("rejects the request's form");
    }

    @Test
    void tokensOfTheWrappedStrategyAreHandedBackOnSuccess() {
        RetryToken token = strategy.acquireInitialToken(AcquireInitialTokenRequest.create("s3"))
                .token();
        token = refresh(token, s3Error(400, "BadDigest"));

        assertThat(strategy.recordSuccess(RecordSuccessRequest.create(token)).token())
                .isSameAs(token);
    }

    @Test
    void aConditionalRequestConflictIsRetried() {
        S3Exception conflict = s3Error(409, "ConditionalRequestConflict");
        assertThat(firstRetryDelay(conflict)).isNotNull();
        assertThat(S3RetryStrategy.classify(conflict)).isEqualTo(S3RetryStrategy.Failure.ERROR_ANSWER);
        assertThat(S3RetryStrategy.isConditionalRequestConflict(s3Error(409, "BucketNotEmpty")))
                .isFalse();
    }

    @Test
    void aConditionalRequestConflictIsFinalWhereTheRequestAsksSo() {
        RetryStrategy conflictFinal = new S3RetryStrategy.FinalFailures(strategy, true);
        RetryToken token = conflictFinal
                .acquireInitialToken(AcquireInitialTokenRequest.create("s3"))
                .token();
        RetryToken afterServerError = conflictFinal
                .refreshRetryToken(RefreshRetryTokenRequest.builder()
                        .token(token)
                        .failure(s3Error(500, "InternalError"))
                        .build())
                .token();

        assertThatThrownBy(() -> conflictFinal.refreshRetryToken(RefreshRetryTokenRequest.builder()
                        .token(afterServerError)
                        .failure(s3Error(409, "ConditionalRequestConflict"))
                        .build()))
                .isInstanceOf(TokenAcquisitionFailedException.class)
                .hasMessageContaining("start again");
    }

    @Test
    void answersCutShortInTheirXmlAreRetried() {
        SdkClientException truncated = SdkClientException.create(
                "Could not parse XML response.",
                new javax.xml.stream.XMLStreamException("ParseError: Premature end of file."));
        assertThat(firstRetryDelay(truncated)).isNotNull();
    }

    @Test
    void clientErrorsAreFinal() {
        for (S3Exception fatal : new S3Exception[] {
            s3Error(403, "AccessDenied"), s3Error(404, "NoSuchKey"), s3Error(412, "PreconditionFailed"),
            s3Error(400, "InvalidArgument"), s3Error(400, "ExpiredToken"), s3Error(400, "InvalidToken"),
            s3Error(409, "BucketNotEmpty"), codelessError(400), codelessError(403)
        }) {
            RetryToken token = strategy.acquireInitialToken(AcquireInitialTokenRequest.create("s3"))
                    .token();
            assertThatThrownBy(() -> strategy.refreshRetryToken(RefreshRetryTokenRequest.builder()
                            .token(token)
                            .failure(fatal)
                            .build()))
                    .isInstanceOf(TokenAcquisitionFailedException.class);
        }
    }

    @Test
    void stopsAfterTheLastAttempt() {
        RetryToken token = strategy.acquireInitialToken(AcquireInitialTokenRequest.create("s3"))
                .token();
        S3Exception failure = s3Error(500, "InternalError");
        for (int retry = 1; retry <= 4; retry++) {
            token = strategy.refreshRetryToken(RefreshRetryTokenRequest.builder()
                            .token(token)
                            .failure(failure)
                            .build())
                    .token();
        }
        RetryToken exhausted = token;
        assertThatThrownBy(() -> strategy.refreshRetryToken(RefreshRetryTokenRequest.builder()
                        .token(exhausted)
                        .failure(failure)
                        .build()))
                .isInstanceOf(TokenAcquisitionFailedException.class);
    }

    private RetryToken refresh(RetryToken token, Throwable failure) {
        return strategy.refreshRetryToken(RefreshRetryTokenRequest.builder()
                        .token(token)
                        .failure(failure)
                        .build())
                .token();
    }

    private Duration firstRetryDelay(Throwable failure) {
        RetryToken token = strategy.acquireInitialToken(AcquireInitialTokenRequest.create("s3"))
                .token();
        return strategy.refreshRetryToken(RefreshRetryTokenRequest.builder()
                        .token(token)
                        .failure(failure)
                        .build())
                .delay();
    }

    /** The answer to a HEAD: a status, no body, so no error code. */
    static S3Exception headError(int status) {
        return (S3Exception) S3Exception.builder().statusCode(status).build();
    }

    /** An answer with an empty body, as the SDK reads it: error details without a code. */
    public static S3Exception codelessError(int status) {
        return (S3Exception) S3Exception.builder()
                .statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().serviceName("S3").build())
                .build();
    }

    public static S3Exception s3Error(int status, String code) {
        return s3Error(status, code, code + " message");
    }

    public static S3Exception s3Error(int status, String code, String message) {
        return (S3Exception) S3Exception.builder()
                .statusCode(status)
                .message(message)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(code)
                        .errorMessage(message)
                        .build())
                .build();
    }
}
