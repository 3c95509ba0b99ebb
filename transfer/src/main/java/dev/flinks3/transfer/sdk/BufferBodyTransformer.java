package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Copies the body of one ranged GET into a caller's buffer (heap or direct) on the thread that delivers
 * it (the HTTP client's), so no reader thread waits for buffers handed over one by one, as the SDK's
 * blocking input stream does. The SDK calls {@link #prepare()} once per attempt; each attempt writes
 * from the buffer's position again, through a view of its own, so the caller's position and limit never
 * move.
 *
 * <p>After a failure, {@link #trustedBytes()} tells how many bytes the last attempt copied that can be
 * used: all it copied, unless the answer carried the object's checksum (the SDK then checks the body
 * when it ends, and a failure may be a mismatch), in which case none.
 */
final class BufferBodyTransformer implements AsyncResponseTransformer<GetObjectResponse, GetAnswer> {

    private final S3Location location;
    private final long start;
    private final ByteBuffer dst;
    private final int length;
    private volatile Attempt attempt;

    /** @param dst receives the bytes between its position and limit; its position and limit are not moved */
    BufferBodyTransformer(S3Location location, long start, ByteBuffer dst) {
        this.location = location;
        this.start = start;
        this.dst = dst.duplicate();
        this.length = dst.remaining();
    }

    @Override
    public CompletableFuture<GetAnswer> prepare() {
        Attempt next = new Attempt(dst.duplicate());
        attempt = next;
        return next.result;
    }

    @Override
    public void onResponse(GetObjectResponse response) {
        Attempt current = attempt;
        current.objectLength = SdkRangeStream.objectLength(response);
        current.eTag = response.eTag();
        current.checksummed = response.checksumCRC32C() != null
                || response.checksumCRC32() != null
                || response.checksumCRC64NVME() != null
                || response.checksumSHA1() != null
                || response.checksumSHA256() != null;
        if (response.contentRange() == null && start > 0) {
            current.refused = true;
            current.result.completeExceptionally(new S3RequestException(
                    "GetObject",
                    location.toString(),
                    200,
                    null,
                    "The server ignored the Range header and sent the whole object",
                    null));
        }
    }

    @Override
    public void onStream(SdkPublisher<ByteBuffer> publisher) {
        Attempt current = attempt;
        current.streaming = true;
        publisher.subscribe(current);
    }

    @Override
    public void exceptionOccurred(Throwable error) {
        attempt.result.completeExceptionally(error);
    }

    /**
     * True if the last attempt's body had begun to arrive and then broke (not refused by this
     * transformer for a wrong answer, which no new request from the break point would mend).
     */
    boolean brokeMidBody() {
        Attempt current = attempt;
        return current != null && current.streaming && !current.refused;
    }

    /** Bytes of the last attempt in the buffer that can be trusted (see the class notes). */
    int trustedBytes() {
        Attempt current = attempt;
        return current == null || current.checksummed ? 0 : current.copied;
    }

    /** One attempt's state and the subscriber to its body. */
    private final class Attempt implements Subscriber<ByteBuffer> {
        final CompletableFuture<GetAnswer> result = new CompletableFuture<>();
        private final ByteBuffer target;
        volatile long objectLength = -1;
        volatile String eTag;
        volatile boolean checksummed;
        volatile boolean streaming;
        volatile boolean refused;
        volatile int copied;
        private Subscription subscription;

        Attempt(ByteBuffer target) {
            this.target = target;
        }

        @Override
        public void onSubscribe(Subscription s) {
            subscription = s;
            if (result.isDone()) {
                s.cancel();
                return;
            }
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(ByteBuffer buffer) {
            if (result.isDone()) {
                // Failed (the server ignored the range) or cancelled: drop the rest of the body.
                subscription.cancel();
                return;
            }
            int n = buffer.remaining();
            if (n > target.remaining()) {
                refused = true;
                subscription.cancel();
                result.completeExceptionally(new S3RequestException(
                        "GetObject",
                        location.toString(),
                        200,
                        null,
                        "The server sent more than the " + length + " bytes asked for from byte " + start,
                        null));
                return;
            }
            target.put(buffer);
            copied += n;
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(GetAnswer.delivered(copied, objectLength, eTag));
        }
    }
}
