package dev.flinks3.transfer.sdk;

import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Counts the attempts the SDK sends for one request that carries a {@link Count} in its execution attributes
 * (the SDK calls {@link #beforeTransmission} once per attempt, retries included). The plugin gives a count to
 * each CreateMultipartUpload, to learn whether the SDK retried it ({@link RetriedCreates}). Requests without a
 * count are not touched. The CRT-based S3 client retries inside native code and calls this once per request.
 */
final class CreateAttempts implements ExecutionInterceptor {

    /** The attribute under which a request carries its count. */
    static final ExecutionAttribute<Count> COUNT = new ExecutionAttribute<>("flinks3.CreateAttempts.count");

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        Count count = attributes.getAttribute(COUNT);
        if (count != null) {
            count.attempts.incrementAndGet();
        }
    }

    /** The attempts of one request, and when the first began (ms since the epoch, this host's clock). */
    static final class Count {
        private final AtomicInteger attempts = new AtomicInteger();
        private final long startMillis = System.currentTimeMillis();

        /** Attempts sent so far. */
        int attempts() {
            return attempts.get();
        }

        /** When the request was made, before its first attempt, in ms since the epoch. */
        long startMillis() {
            return startMillis;
        }
    }
}
