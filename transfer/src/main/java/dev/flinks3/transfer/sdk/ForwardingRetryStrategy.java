package dev.flinks3.transfer.sdk;

import software.amazon.awssdk.retries.api.RetryStrategy;

/**
 * A retry strategy that wraps another one, already configured for S3 ({@link S3RetryStrategy}): the
 * attempts, the builder and closing are the wrapped strategy's; subclasses change what happens to a
 * token. Thread-safe as the wrapped strategy is.
 */
abstract class ForwardingRetryStrategy implements RetryStrategy {

    /** The strategy that decides. */
    protected final RetryStrategy delegate;

    ForwardingRetryStrategy(RetryStrategy delegate) {
        this.delegate = delegate;
    }

    @Override
    public final int maxAttempts() {
        return delegate.maxAttempts();
    }

    /**
     * False: the wrapped strategy is configured for S3 already, and the SDK may only add its defaults to
     * a strategy of its own.
     */
    @Override
    public final boolean useClientDefaults() {
        return false;
    }

    /** A builder of the wrapped strategy: what it builds does not have this wrapper's behaviour. */
    @Override
    public final Builder<?, ?> toBuilder() {
        return delegate.toBuilder();
    }

    @Override
    public final void close() {
        delegate.close();
    }
}
