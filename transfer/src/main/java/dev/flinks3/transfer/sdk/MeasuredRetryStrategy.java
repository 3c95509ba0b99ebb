package dev.flinks3.transfer.sdk;

import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.AcquireInitialTokenResponse;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RecordSuccessResponse;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenResponse;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.retries.api.TokenAcquisitionFailedException;

/**
 * A retry strategy that decides nothing itself: it asks the strategy it wraps and counts, in {@link
 * S3RequestMetrics}, each failed attempt by {@link S3RetryStrategy.Failure kind} and the backoff the
 * wrapped strategy chose before the retry. The SDK consults the strategy after every failed attempt,
 * also the last one, so this sees them all. Thread-safe as the wrapped strategy is.
 */
final class MeasuredRetryStrategy extends ForwardingRetryStrategy {

    private final S3RequestMetrics metrics;

    MeasuredRetryStrategy(RetryStrategy delegate, S3RequestMetrics metrics) {
        super(delegate);
        this.metrics = metrics;
    }

    @Override
    public AcquireInitialTokenResponse acquireInitialToken(AcquireInitialTokenRequest request) {
        return delegate.acquireInitialToken(request);
    }

    /** @throws TokenAcquisitionFailedException when the wrapped strategy does not retry */
    @Override
    public RefreshRetryTokenResponse refreshRetryToken(RefreshRetryTokenRequest request) {
        S3RetryStrategy.Failure failure = S3RetryStrategy.classify(request.failure());
        RefreshRetryTokenResponse response;
        try {
            response = delegate.refreshRetryToken(request);
        } catch (TokenAcquisitionFailedException finalFailure) {
            metrics.attemptFailed(failure, null);
            throw finalFailure;
        }
        metrics.attemptFailed(failure, response.delay());
        return response;
    }

    @Override
    public RecordSuccessResponse recordSuccess(RecordSuccessRequest request) {
        return delegate.recordSuccess(request);
    }
}
