package dev.flinks3.transfer.sdk;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.reactivestreams.Publisher;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.Abortable;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;

/**
 * Counts the bytes of object bodies the S3 client receives, into {@link
 * S3RequestMetrics#bytesDownloaded()}: the body of each successful GetObject attempt is passed on
 * unchanged while the size of each chunk is added to a counter, so bytes a reader abandons or an attempt
 * that breaks off count as far as they arrived. Error bodies and the XML answers of other operations are
 * not counted. Stateless apart from the counter; thread-safe.
 */
final class ObjectBodyBytes implements ExecutionInterceptor {

    private final S3RequestMetrics metrics;

    ObjectBodyBytes(S3RequestMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public Optional<Publisher<ByteBuffer>> modifyAsyncHttpResponseContent(
            Context.ModifyHttpResponse context, ExecutionAttributes executionAttributes) {
        Optional<Publisher<ByteBuffer>> body = context.responsePublisher();
        if (body.isEmpty()
                || !(context.request() instanceof GetObjectRequest)
                || !context.httpResponse().isSuccessful()) {
            return body;
        }
        return Optional.of(SdkPublisher.adapt(body.get()).map(chunk -> {
            metrics.bodyBytesReceived(chunk.remaining());
            return chunk;
        }));
    }

    /** The same count for the blocking client's bodies, as the caller reads them. */
    @Override
    public Optional<InputStream> modifyHttpResponseContent(
            Context.ModifyHttpResponse context, ExecutionAttributes executionAttributes) {
        Optional<InputStream> body = context.responseBody();
        if (body.isEmpty()
                || !(context.request() instanceof GetObjectRequest)
                || !context.httpResponse().isSuccessful()) {
            return body;
        }
        return Optional.of(new CountingStream(body.get()));
    }

    /**
     * Adds the bytes each read returns to the counter; everything else passes through, {@link #abort()}
     * too: the SDK wraps what an interceptor returns in a stream whose abort is that of the returned
     * stream, so without it a reader's abort would leave the connection to be drained on close.
     */
    private final class CountingStream extends FilterInputStream implements Abortable {

        CountingStream(InputStream body) {
            super(body);
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                metrics.bodyBytesReceived(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                metrics.bodyBytesReceived(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = in.skip(n);
            if (skipped > 0) {
                metrics.bodyBytesReceived(skipped);
            }
            return skipped;
        }

        @Override
        public void abort() {
            if (in instanceof Abortable) {
                ((Abortable) in).abort();
            }
        }
    }
}
