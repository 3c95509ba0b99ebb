package dev.flinks3.transfer;

import java.time.Duration;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;

/**
 * The one retry strategy of the S3 client, built on the SDK's standard strategy (AWS SDKs and Tools
 * reference guide, "Retry behavior"): it retries network errors, timeouts, 5xx and throttling (429,
 * 503 SlowDown and the other throttling codes); every other 4xx is final.
 *
 * <ul>
 *   <li>attempts = {@code maxRetries + 1};
 *   <li>5xx and network errors back off exponentially from {@value #BASE_DELAY_MS} ms with full
 *       jitter, at most {@value #MAX_DELAY_MS} ms;
 *   <li>throttling backs off exponentially from {@value #THROTTLING_BASE_DELAY_MS} ms with half
 *       jitter, so every throttled retry waits at least half of that: S3 asks a client that sees
 *       SlowDown to slow down, not to come straight back;
 *   <li>a body corrupted in flight (S3 answers 400 {@code BadDigest} when a checksum or
 *       {@code XAmzContentSHA256Mismatch} when the payload hash does not match) is sent again, like
 *       a network error: nothing was stored;
 *   <li>the retry-quota circuit breaker is off: a checkpoint must not fail because other requests
 *       of the process failed before it; the attempt count and backoff bound each request.
 * </ul>
 */
final class S3RetryStrategy {

    static final long BASE_DELAY_MS = 100;
    static final long THROTTLING_BASE_DELAY_MS = 1_000;
    static final long MAX_DELAY_MS = 20_000;

    private S3RetryStrategy() {}

    /** The strategy for {@code settings.maxRetries()}; stateless apart from the SDK's bookkeeping. */
    static RetryStrategy create(S3Settings settings) {
        Duration max = Duration.ofMillis(MAX_DELAY_MS);
        return AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(settings.maxRetries() + 1)
                .backoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofMillis(BASE_DELAY_MS), max))
                .throttlingBackoffStrategy(
                        BackoffStrategy.exponentialDelayHalfJitter(Duration.ofMillis(THROTTLING_BASE_DELAY_MS), max))
                .retryOnException(S3RetryStrategy::isCorruptedInFlight)
                .circuitBreakerEnabled(false)
                .build();
    }

    static boolean isCorruptedInFlight(Throwable failure) {
        if (!(failure instanceof AwsServiceException)) {
            return false;
        }
        AwsErrorDetails details = ((AwsServiceException) failure).awsErrorDetails();
        String code = details == null ? null : details.errorCode();
        return "BadDigest".equals(code) || "XAmzContentSHA256Mismatch".equals(code);
    }
}
