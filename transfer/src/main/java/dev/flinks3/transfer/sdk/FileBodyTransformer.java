package dev.flinks3.transfer.sdk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Writes the body of one ranged GET into a local file at the range's offset, each buffer the HTTP client
 * delivers written at once with a positional {@link FileChannel#write(ByteBuffer, long)} on the thread that
 * delivers it. The SDK's {@code AsyncResponseTransformer.toFile} writes through an {@code
 * AsynchronousFileChannel}, which on Linux hands every buffer to a thread of its own pool and completes a
 * handler per write; a bulk restore moves thousands of such buffers per file. Writing on the delivering thread
 * also holds the HTTP client back while the disk is slower than the network, instead of queueing buffers.
 *
 * <p>The SDK calls {@link #prepare()} once per attempt; each attempt writes from the range's offset again.
 * The file is never truncated; a failed attempt may leave part of the range written. The result is the
 * answer's {@link GetObjectResponse}.
 */
final class FileBodyTransformer implements AsyncResponseTransformer<GetObjectResponse, GetObjectResponse> {

    private final Path file;
    private final long offset;
    private volatile Attempt attempt;

    /**
     * @param file an existing local file
     * @param offset where in the file the range's first byte goes, in bytes
     */
    FileBodyTransformer(Path file, long offset) {
        this.file = file;
        this.offset = offset;
    }

    @Override
    public CompletableFuture<GetObjectResponse> prepare() {
        Attempt next = new Attempt();
        attempt = next;
        return next.result;
    }

    @Override
    public void onResponse(GetObjectResponse response) {
        attempt.response = response;
    }

    @Override
    public void onStream(SdkPublisher<ByteBuffer> publisher) {
        Attempt current = attempt;
        try {
            current.channel = FileChannel.open(file, StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            current.fail(e);
        }
        publisher.subscribe(current);
    }

    @Override
    public void exceptionOccurred(Throwable error) {
        Attempt current = attempt;
        if (current != null) {
            current.fail(error);
        }
    }

    /** One attempt's file channel and the subscriber to its body. */
    private final class Attempt implements Subscriber<ByteBuffer> {
        final CompletableFuture<GetObjectResponse> result = new CompletableFuture<>();
        volatile GetObjectResponse response;
        volatile FileChannel channel;
        private Subscription subscription;
        private long written;

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
                subscription.cancel();
                return;
            }
            try {
                while (buffer.hasRemaining()) {
                    written += channel.write(buffer, offset + written);
                }
            } catch (IOException | RuntimeException e) {
                subscription.cancel();
                fail(new IOException(
                        "writing the body of a ranged GET into " + file + " at byte " + (offset + written) + " failed: "
                                + e,
                        e));
            }
        }

        @Override
        public void onError(Throwable t) {
            fail(t);
        }

        @Override
        public void onComplete() {
            if (close(null)) {
                result.complete(response);
            }
        }

        void fail(Throwable t) {
            close(t);
            result.completeExceptionally(t);
        }

        /** Closes the channel; true if it closed cleanly (a failure to close fails the attempt). */
        private boolean close(Throwable failure) {
            FileChannel open = channel;
            channel = null;
            if (open == null) {
                return true;
            }
            try {
                open.close();
                return true;
            } catch (IOException e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                } else {
                    result.completeExceptionally(e);
                }
                return false;
            }
        }
    }
}
