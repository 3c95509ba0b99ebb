package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.aws.S3Errors;
import java.time.Duration;
import javax.xml.stream.XMLStreamException;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.AcquireInitialTokenResponse;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RecordSuccessResponse;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenResponse;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.retries.api.RetryToken;
import software.amazon.awssdk.retries.api.TokenAcquisitionFailedException;

/**
 * The one retry strategy of the S3 client, built on the SDK's standard strategy (AWS SDKs and Tools
 * reference guide, "Retry behavior"): it retries network errors, timeouts, 5xx and throttling (429,
 * 503 SlowDown and the other throttling codes); every other 4xx is final.
 *
 * <ul>
 *   <li>attempts = {@code maxRetries + 1};
 *   <li>5xx and network errors back off exponentially from {@link ClientSettings#retryBaseDelay()}
 *       (default {@value #BASE_DELAY_MS} ms) with full jitter, at most {@link
 *       ClientSettings#retryMaxDelay()} (default {@value #MAX_DELAY_MS} ms);
 *   <li>throttling backs off exponentially from {@link ClientSettings#throttlingRetryBaseDelay()}
 *       (default {@value #THROTTLING_BASE_DELAY_MS} ms) with half jitter, so every throttled retry waits at least half of that: S3 asks a client that sees
 *       SlowDown to slow down, not to come straight back. Every 503 counts as throttling: S3 answers
 *       both of its 503 codes (SlowDown, ServiceUnavailable) with "reduce your request rate", and the
 *       answer to a HEAD has no body, so its code cannot be read;
 *   <li>a body corrupted in flight (S3 answers 400 {@code BadDigest} when a checksum or
 *       {@code XAmzContentSHA256Mismatch} when the payload hash does not match) is sent again, like
 *       a network error: nothing was stored. It is sent again once only: the same answer to the
 *       resent body means the server rejects the form of the request, not bytes spoilt on the way
 *       (Ceph RGW answers {@code XAmzContentSHA256Mismatch} to every aws-chunked upload with a
 *       trailing checksum, which ten more attempts cannot fix);
 *   <li>409 {@code ConditionalRequestConflict} is retried: S3 answers it to a conditional write
 *       ({@code If-None-Match}) that raced another operation on the key, and documents that the
 *       PutObject can be retried (Amazon S3 API reference, PutObject and "Error responses"). Not so a
 *       CompleteMultipartUpload: for it S3 asks for a new multipart upload with every part sent again,
 *       so that request carries {@link #CONFLICT_IS_FINAL};
 *   <li>an answer whose XML body cannot be parsed is asked for again: a connection that a proxy or load
 *       balancer closes cleanly in the middle of a body (FIN, not reset) looks like a short document,
 *       and the SDK would otherwise give up on the first attempt;
 *   <li>the retry-quota circuit breaker is off: a checkpoint must not fail because other requests
 *       of the process failed before it; the attempt count and backoff bound each request.
 * </ul>
 *
 * <p>Every other 4xx is final: retrying does not change what the server finds wrong with the request.
 *
 * <p>Every failed attempt and the backoff chosen after it are counted in {@link S3RequestMetrics}.
 */
public final class S3RetryStrategy {

    /** Defaults of the settings' retry delays, in ms: {@link ClientSettings}' (declared there, once). */
    public static final long BASE_DELAY_MS = ClientSettings.DEFAULT_RETRY_BASE_DELAY_MS;

    public static final long THROTTLING_BASE_DELAY_MS = ClientSettings.DEFAULT_THROTTLING_RETRY_BASE_DELAY_MS;
    public static final long MAX_DELAY_MS = ClientSettings.DEFAULT_RETRY_MAX_DELAY_MS;

    /**
     * A per-request plugin that makes 409 {@code ConditionalRequestConflict} final for the request it is
     * added to, whatever the client's strategy: retrying a conditional CompleteMultipartUpload cannot help,
     * S3 asks for the whole upload again. The answer is then not counted in {@link S3RequestMetrics}.
     */
    static final SdkPlugin CONFLICT_IS_FINAL = config -> {
        ClientOverrideConfiguration override = config.overrideConfiguration();
        override.retryStrategy()
                .ifPresent(strategy -> config.overrideConfiguration(override.toBuilder()
                        .retryStrategy(new FinalFailures(strategy, true))
                        .build()));
    };

    private S3RetryStrategy() {}

    /** The strategy for {@code settings.maxRetries()}, counting into {@code metrics}. */
    static RetryStrategy create(ClientSettings settings, S3RequestMetrics metrics) {
        return new MeasuredRetryStrategy(create(settings), metrics);
    }

    /** The strategy for {@code settings.maxRetries()}; stateless apart from the SDK's bookkeeping. */
    static RetryStrategy create(ClientSettings settings) {
        Duration max = settings.retryMaxDelay();
        return new FinalFailures(
                AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(settings.maxRetries() + 1)
                        .backoffStrategy(BackoffStrategy.exponentialDelay(settings.retryBaseDelay(), max))
                        .throttlingBackoffStrategy(throttlingBackoff(settings))
                        .treatAsThrottling(S3RetryStrategy::isThrottling)
                        .retryOnException(S3RetryStrategy::isCorruptedInFlight)
                        .retryOnException(S3RetryStrategy::isTruncatedAnswer)
                        .retryOnException(S3RetryStrategy::isConditionalRequestConflict)
                        .circuitBreakerEnabled(false)
                        .build(),
                false);
    }

    /**
     * The wait before a retry after throttling: exponential from {@code settings.throttlingRetryBaseDelay()} with
     * half jitter, at most {@code settings.retryMaxDelay()}; also the wait of a throttled direct GET before the
     * SDK sends it again ({@link DirectRangedGet}).
     */
    static BackoffStrategy throttlingBackoff(ClientSettings settings) {
        return BackoffStrategy.exponentialDelayHalfJitter(
                settings.throttlingRetryBaseDelay(), settings.retryMaxDelay());
    }

    /** What an attempt failed with, as the retry strategy and the metrics tell failures apart. */
    enum Failure {
        /** 503, 429 or another throttling code: retried with the throttling backoff. */
        THROTTLED,
        /** Any other S3 error answer (5xx retried, 4xx final). */
        ERROR_ANSWER,
        /** The attempt took longer than the per-attempt timeout. */
        TIMED_OUT,
        /** No usable answer: the connection failed, broke or closed early. */
        CONNECTION
    }

    static Failure classify(Throwable failure) {
        if (isThrottling(failure)) {
            return Failure.THROTTLED;
        }
        if (failure instanceof SdkServiceException) {
            return Failure.ERROR_ANSWER;
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ApiCallAttemptTimeoutException) {
                return Failure.TIMED_OUT;
            }
        }
        return Failure.CONNECTION;
    }

    static boolean isThrottling(Throwable failure) {
        if (!(failure instanceof SdkServiceException)) {
            return false;
        }
        SdkServiceException answer = (SdkServiceException) failure;
        return answer.statusCode() == 503 || answer.isThrottlingException();
    }

    /** An answer whose body ended before its XML document did (the SDK wraps the parser's complaint). */
    static boolean isTruncatedAnswer(Throwable failure) {
        return failure instanceof SdkClientException && failure.getCause() instanceof XMLStreamException;
    }

    static boolean isCorruptedInFlight(Throwable failure) {
        String code = errorCode(failure);
        return "BadDigest".equals(code) || "XAmzContentSHA256Mismatch".equals(code);
    }

    /** S3's answer to a conditional write that raced another operation on the same key. */
    static boolean isConditionalRequestConflict(Throwable failure) {
        return failure instanceof AwsServiceException
                && ((AwsServiceException) failure).statusCode() == 409
                && "ConditionalRequestConflict".equals(errorCode(failure));
    }

    private static String errorCode(Throwable failure) {
        if (!(failure instanceof AwsServiceException)) {
            return null;
        }
        AwsErrorDetails details = ((AwsServiceException) failure).awsErrorDetails();
        return details == null ? null : details.errorCode();
    }

    /**
     * The wrapped strategy, except for failures it would retry that retrying cannot fix: a body answered
     * as corrupted in flight ({@link #isCorruptedInFlight}) a second time for the same request, and, if
     * asked for, a 409 {@code ConditionalRequestConflict}. Its tokens remember whether an earlier attempt
     * of the request was answered as corrupted. Thread-safe as the wrapped strategy is.
     */
    static final class FinalFailures extends ForwardingRetryStrategy {

        private final boolean conflictIsFinal;

        FinalFailures(RetryStrategy delegate, boolean conflictIsFinal) {
            super(delegate);
            this.conflictIsFinal = conflictIsFinal;
        }

        @Override
        public AcquireInitialTokenResponse acquireInitialToken(AcquireInitialTokenRequest request) {
            AcquireInitialTokenResponse response = delegate.acquireInitialToken(request);
            return AcquireInitialTokenResponse.create(new Token(response.token(), false), response.delay());
        }

        /** @throws TokenAcquisitionFailedException when the request is not retried */
        @Override
        public RefreshRetryTokenResponse refreshRetryToken(RefreshRetryTokenRequest request) {
            Token token = (Token) request.token();
            boolean corrupted = isCorruptedInFlight(request.failure());
            if (corrupted && token.corruptedBefore) {
                throw new TokenAcquisitionFailedException(
                        "The server answered the resent body as corrupted again,"
                                + " so it rejects the request's form rather than bytes spoilt in flight",
                        token,
                        request.failure());
            }
            if (S3Errors.isUnknownHost(request.failure())) {
                throw new TokenAcquisitionFailedException(
                        "The server's host name does not resolve, which retrying within seconds does not change",
                        token,
                        request.failure());
            }
            if (conflictIsFinal && isConditionalRequestConflict(request.failure())) {
                throw new TokenAcquisitionFailedException(
                        "A conflicting operation raced this request, which S3"
                                + " asks to start again from the beginning rather than to retry",
                        token,
                        request.failure());
            }
            RefreshRetryTokenResponse response;
            try {
                response = delegate.refreshRetryToken(
                        request.toBuilder().token(token.delegate).build());
            } catch (TokenAcquisitionFailedException finalFailure) {
                throw new TokenAcquisitionFailedException(finalFailure.getMessage(), token, finalFailure.getCause());
            }
            return RefreshRetryTokenResponse.create(
                    new Token(response.token(), token.corruptedBefore || corrupted), response.delay());
        }

        @Override
        public RecordSuccessResponse recordSuccess(RecordSuccessRequest request) {
            Token token = (Token) request.token();
            delegate.recordSuccess(RecordSuccessRequest.create(token.delegate));
            return RecordSuccessResponse.create(token);
        }

        private static final class Token implements RetryToken {
            final RetryToken delegate;
            final boolean corruptedBefore;

            Token(RetryToken delegate, boolean corruptedBefore) {
                this.delegate = delegate;
                this.corruptedBefore = corruptedBefore;
            }
        }
    }
}
