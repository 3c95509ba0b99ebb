package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.async.AsyncExecuteRequest;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.http.async.SdkAsyncHttpResponseHandler;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * The SDK's own pipeline (attempt timeout, retries, one response handler for every attempt of a call)
 * over an HTTP client that reports the cancel of an abandoned attempt late, after the retry was sent, as
 * the CRT client's event loop can: without {@link AbandonedAttemptFilter} the late report fails the retry,
 * with it the retry is answered. The HTTP client is a fake: what is tested is what the SDK does with its
 * reports, which no real server can time.
 */
class AbandonedAttemptFilterTest {

    private static final Duration ATTEMPT_TIMEOUT = Duration.ofMillis(300);
    private static final long LENGTH = 42;

    @Test
    @Timeout(30)
    void theLateReportOfAnAbandonedAttemptFailsTheRetryWhenNothingFiltersIt() {
        LateReportingHttpClient http = new LateReportingHttpClient();
        try (S3AsyncClient s3 = client(http)) {
            assertThatThrownBy(() -> s3.headObject(b -> b.bucket("b").key("k")).join())
                    .hasRootCauseMessage(LateReportingHttpClient.LATE_REPORT);
        }
        assertThat(http.attempts).hasSize(2);
    }

    @Test
    @Timeout(30)
    void theRetryOfAnAbandonedAttemptIsAnsweredWhateverTheAbandonedAttemptReportsLate() {
        LateReportingHttpClient http = new LateReportingHttpClient();
        try (S3AsyncClient s3 = client(AbandonedAttemptFilter.around(http))) {
            assertThat(s3.headObject(b -> b.bucket("b").key("k")).join().contentLength())
                    .isEqualTo(LENGTH);
        }
        assertThat(http.attempts).hasSize(2);
        assertThat(http.attempts.get(0).isCancelled())
                .as("the abandoned attempt's future was cancelled")
                .isTrue();
    }

    @Test
    @Timeout(30)
    void anAttemptThatFailsByItselfIsReportedAsBefore() {
        SdkAsyncHttpClient failing = new SdkAsyncHttpClient() {
            @Override
            public CompletableFuture<Void> execute(AsyncExecuteRequest request) {
                IOException reset = new IOException("connection reset");
                request.responseHandler().onError(reset);
                return CompletableFuture.failedFuture(reset);
            }

            @Override
            public void close() {}
        };
        try (S3AsyncClient s3 = client(AbandonedAttemptFilter.around(failing))) {
            assertThatThrownBy(() -> s3.headObject(b -> b.bucket("b").key("k")).join())
                    .hasRootCauseMessage("connection reset");
        }
    }

    @Test
    void whatTheClientWrapsIsFoundThroughIt() {
        LateReportingHttpClient http = new LateReportingHttpClient();
        assertThat(AbandonedAttemptFilter.unwrap(AbandonedAttemptFilter.around(http)))
                .isSameAs(http);
        assertThat(AbandonedAttemptFilter.unwrap(http)).isSameAs(http);
    }

    private static S3AsyncClient client(SdkAsyncHttpClient http) {
        return S3AsyncClient.builder()
                .region(Region.US_WEST_2)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
                .httpClient(http)
                .overrideConfiguration(
                        o -> o.apiCallAttemptTimeout(ATTEMPT_TIMEOUT).retryStrategy(r -> r.maxAttempts(3)))
                .build();
    }

    /**
     * Never answers its first attempt; once that attempt is cancelled, reports the cancel to the attempt's
     * handler (once, with an error the SDK does not retry) only when the next attempt is sent, and then
     * answers that one: 200 with a Content-Length.
     */
    private static final class LateReportingHttpClient implements SdkAsyncHttpClient {

        static final String LATE_REPORT = "In-flight HTTP-stream has been cancelled (reported late)";

        final List<CompletableFuture<Void>> attempts = new ArrayList<>();
        private SdkAsyncHttpResponseHandler abandoned;

        @Override
        public synchronized CompletableFuture<Void> execute(AsyncExecuteRequest request) {
            CompletableFuture<Void> attempt = new CompletableFuture<>();
            attempts.add(attempt);
            SdkAsyncHttpResponseHandler handler = request.responseHandler();
            if (attempts.size() == 1) {
                attempt.whenComplete((ignored, failure) -> {
                    synchronized (this) {
                        abandoned = handler;
                    }
                });
                return attempt;
            }
            if (abandoned != null) {
                // The CRT client reports a cancelled stream as its own exception, not as an IOException:
                // the SDK does not retry it.
                abandoned.onError(new IllegalStateException(LATE_REPORT));
                abandoned = null;
            }
            handler.onHeaders(SdkHttpResponse.builder()
                    .statusCode(200)
                    .putHeader("Content-Length", Long.toString(LENGTH))
                    .putHeader("ETag", "\"0123456789abcdef0123456789abcdef\"")
                    .build());
            handler.onStream(new EmptyBody());
            attempt.complete(null);
            return attempt;
        }

        @Override
        public void close() {}
    }

    /** The body of a HEAD answer: complete as soon as it is asked for. */
    private static final class EmptyBody implements Publisher<ByteBuffer> {

        @Override
        public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
            subscriber.onSubscribe(new Subscription() {
                private boolean done;

                @Override
                public void request(long n) {
                    if (!done) {
                        done = true;
                        subscriber.onComplete();
                    }
                }

                @Override
                public void cancel() {
                    done = true;
                }
            });
        }
    }
}
