package dev.flinks3.transfer.sdk;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.async.AsyncExecuteRequest;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.http.async.SdkAsyncHttpResponseHandler;

/**
 * An asynchronous HTTP client that keeps what an abandoned attempt still reports away from the attempt
 * sent after it.
 *
 * <p>The SDK (2.57.8) gives every attempt of a call the same response handler, prepared afresh for each
 * attempt, and abandons an attempt that runs past {@code s3.request.attempt-timeout} by cancelling the
 * future its HTTP client returned. The CRT client then cancels the HTTP stream, and the native library
 * reports that cancel ({@code AWS_ERROR_HTTP_STREAM_CANCELLED}, "In-flight HTTP-stream has been cancelled
 * by user") to the handler some time later, from its event loop. When the retry has been sent by then,
 * the report fails the retry, with an error the SDK does not retry: a call whose first attempt was slow
 * failed after two attempts, however many retries were configured.
 *
 * <p>Here each attempt gets a handler of its own that forwards to the SDK's handler until the SDK cancels
 * the attempt, and drops every report after that (a body the abandoned attempt still offers is
 * cancelled, which releases its connection). An attempt that ends by itself, answered or failed, is
 * reported as before. Thread-safe as the wrapped client is.
 */
final class AbandonedAttemptFilter implements SdkAsyncHttpClient {

    private final SdkAsyncHttpClient delegate;

    private AbandonedAttemptFilter(SdkAsyncHttpClient delegate) {
        this.delegate = delegate;
    }

    /** {@code client} with the reports of abandoned attempts dropped; closing it closes {@code client}. */
    static SdkAsyncHttpClient around(SdkAsyncHttpClient client) {
        return new AbandonedAttemptFilter(client);
    }

    /** The client this one wraps, or {@code client} itself if it wraps none. */
    static SdkAsyncHttpClient unwrap(SdkAsyncHttpClient client) {
        return client instanceof AbandonedAttemptFilter ? ((AbandonedAttemptFilter) client).delegate : client;
    }

    /**
     * Sends one attempt. The returned future completes as the wrapped client's does; cancelling it (or
     * completing it exceptionally) before that silences the attempt's handler first and then cancels the
     * wrapped client's future.
     */
    @Override
    public CompletableFuture<Void> execute(AsyncExecuteRequest request) {
        AttemptHandler handler = new AttemptHandler(request.responseHandler());
        CompletableFuture<Void> sent = delegate.execute(withHandler(request, handler));
        CompletableFuture<Void> attempt = new CompletableFuture<>();
        attempt.whenComplete((ignored, failure) -> {
            if (failure != null && !sent.isDone()) {
                handler.abandon();
                sent.cancel(true);
            }
        });
        sent.whenComplete((done, failure) -> {
            if (failure == null) {
                attempt.complete(done);
            } else {
                attempt.completeExceptionally(failure);
            }
        });
        return attempt;
    }

    /** {@code request} with another handler; every other part of it (2.57.8 has no {@code toBuilder}) kept. */
    private static AsyncExecuteRequest withHandler(AsyncExecuteRequest request, SdkAsyncHttpResponseHandler handler) {
        AsyncExecuteRequest.Builder copy = AsyncExecuteRequest.builder()
                .request(request.request())
                .requestContentPublisher(request.requestContentPublisher())
                .responseHandler(handler)
                .fullDuplex(request.fullDuplex())
                .httpExecutionAttributes(request.httpExecutionAttributes());
        request.metricCollector().ifPresent(copy::metricCollector);
        return copy.build();
    }

    @Override
    public String clientName() {
        return delegate.clientName();
    }

    @Override
    public void close() {
        delegate.close();
    }

    /** Forwards to the SDK's handler until {@link #abandon()}; drops every report after it. */
    private static final class AttemptHandler implements SdkAsyncHttpResponseHandler {

        private final SdkAsyncHttpResponseHandler sdk;
        private volatile boolean abandoned;

        AttemptHandler(SdkAsyncHttpResponseHandler sdk) {
            this.sdk = sdk;
        }

        void abandon() {
            abandoned = true;
        }

        @Override
        public void onHeaders(SdkHttpResponse headers) {
            if (!abandoned) {
                sdk.onHeaders(headers);
            }
        }

        @Override
        public void onStream(Publisher<ByteBuffer> stream) {
            if (abandoned) {
                stream.subscribe(new Cancelling());
            } else {
                sdk.onStream(stream);
            }
        }

        @Override
        public void onError(Throwable error) {
            if (!abandoned) {
                sdk.onError(error);
            }
        }
    }

    /** Takes a body nobody reads: cancels it at once. */
    private static final class Cancelling implements Subscriber<ByteBuffer> {

        @Override
        public void onSubscribe(Subscription subscription) {
            subscription.cancel();
        }

        @Override
        public void onNext(ByteBuffer item) {}

        @Override
        public void onError(Throwable error) {}

        @Override
        public void onComplete() {}
    }
}
