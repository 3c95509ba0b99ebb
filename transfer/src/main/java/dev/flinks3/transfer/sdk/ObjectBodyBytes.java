package dev.flinks3.transfer.sdk;

import java.nio.ByteBuffer;
import java.util.Optional;
import org.reactivestreams.Publisher;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
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
}
