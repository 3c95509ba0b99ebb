package dev.flinks3.multipart.crt;

import dev.flinks3.multipart.HeapFootprint;
import dev.flinks3.multipart.UploadBudget;
import dev.flinks3.multipart.UploadMetrics;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.aws.S3Errors;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.reactivestreams.Subscriber;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.BlockingOutputStreamAsyncRequestBody;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.transfer.s3.S3TransferManager;
import software.amazon.awssdk.transfer.s3.model.CompletedUpload;
import software.amazon.awssdk.transfer.s3.model.UploadRequest;
import software.amazon.awssdk.transfer.s3.progress.TransferListener;
import software.amazon.awssdk.utils.CancellableOutputStream;

/**
 * One {@link S3TransferManager#upload} of a body of unknown length, fed by the writer through the SDK's
 * {@link BlockingOutputStreamAsyncRequestBody}: the CRT-based S3 client cuts it into parts of its part
 * size and sends CreateMultipartUpload, the UploadParts and CompleteMultipartUpload itself, and aborts
 * the upload when the body fails or a request fails for good.
 *
 * <p>Two facts of the SDK shape this class. The body's output stream hands each written array on
 * without copying it, and the client's body adapter keeps up to {@value #ADAPTER_QUEUE_BYTES} bytes of
 * such arrays queued after {@code write} has returned: so bytes are copied into chunks of {@value
 * #CHUNK_BYTES} bytes that are never written to again, and that many bytes (plus two chunks) are held
 * in the process-wide {@link UploadBudget} for as long as the upload runs. And a write blocks until the
 * client asks for more bytes, which it stops doing when the upload fails: the writer blocked then is
 * interrupted (and its interrupt flag cleared again), so it sees the failure instead of waiting forever.
 *
 * <p>One writer thread; {@link #abort()} may come from another thread.
 */
final class StreamedUpload {

    /**
     * Heap one chunk takes: 1 MiB, one G1 region on a heap below 2 GiB (an array of exactly 1 MiB would
     * take two there, its header spilling into a region of its own).
     */
    static final int CHUNK_HEAP_BYTES = 1 << 20;
    /** Bytes per array handed to the body: a chunk's heap less the 16 bytes of the array's header. */
    static final int CHUNK_BYTES = CHUNK_HEAP_BYTES - HeapFootprint.ARRAY_HEADER_BYTES;
    /** What the CRT-based client's body adapter queues ahead of its native reads (SDK 2.x). */
    static final long ADAPTER_QUEUE_BYTES = 16L << 20;
    /**
     * Budget one running upload holds, in heap bytes: the chunks the adapter's queue holds (rounded up to
     * whole chunks), a chunk being handed on and one being filled.
     */
    static final long HELD_BYTES =
            ((ADAPTER_QUEUE_BYTES + CHUNK_BYTES - 1) / CHUNK_BYTES + 2) * (long) CHUNK_HEAP_BYTES;
    /** Longest wait for the client to subscribe to the body, and for an aborted upload to end. */
    static final Duration CLIENT_WAIT = Duration.ofSeconds(60);

    private final S3Location target;
    private final String operation;
    private final UploadBudget budget;
    private final long heldBytes;
    private final CompletableFuture<PutObjectResponse> result;
    private final CancellableOutputStream body;
    private byte[] chunk;
    private int chunkFill;
    private Thread writer;
    private boolean writerInterrupted;

    private StreamedUpload(
            S3Location target,
            String operation,
            UploadBudget budget,
            long heldBytes,
            CompletableFuture<PutObjectResponse> result,
            CancellableOutputStream body) {
        this.target = target;
        this.operation = operation;
        this.budget = budget;
        this.heldBytes = heldBytes;
        this.result = result;
        this.body = body;
    }

    /**
     * Starts the upload and waits until the client asks for the body, which it does once its
     * CreateMultipartUpload is answered; the object appears only after {@link #complete()}.
     *
     * @param operation the name failures are reported under ({@link S3Errors#conditionalWrite} for
     *     no-overwrite, so that 412 becomes {@link java.nio.file.FileAlreadyExistsException})
     * @param metrics counts the upload when the Transfer Manager's own listener reports it started and complete
     * @throws NotTaken if the upload failed before the client asked for the body
     * @throws InterruptedIOException if interrupted while waiting
     * @throws IOException if the client neither asks for the body nor fails within {@link #CLIENT_WAIT}
     */
    static StreamedUpload start(
            S3TransferManager transferManager,
            PutObjectRequest request,
            S3Location target,
            String operation,
            UploadBudget budget,
            UploadMetrics metrics)
            throws IOException {
        long held = Math.min(HELD_BYTES, budget.limitBytes());
        budget.acquire(held);
        budget.markInFlight(held);
        BlockingOutputStreamAsyncRequestBody body = BlockingOutputStreamAsyncRequestBody.builder()
                .contentLength(null)
                .subscribeTimeout(CLIENT_WAIT)
                .build();
        CompletableFuture<Void> subscribed = new CompletableFuture<>();
        CompletableFuture<PutObjectResponse> result;
        try {
            result = S3Errors.translating(
                    transferManager
                            .upload(UploadRequest.builder()
                                    .putObjectRequest(request)
                                    .requestBody(new SubscriptionSignal(body, subscribed))
                                    .addTransferListener(new CompletionCounter(metrics))
                                    .build())
                            .completionFuture(),
                    CompletedUpload::response,
                    operation,
                    target);
        } catch (RuntimeException e) {
            budget.release(held, true);
            throw new NotTaken(
                    operation + " of " + target + " was not started", S3Errors.translate(operation, target, e));
        }
        try {
            CompletableFuture.anyOf(subscribed, result).get(CLIENT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException failedFirst) {
            // the result failed before the body was asked for; handled below
        } catch (TimeoutException | InterruptedException e) {
            result.cancel(true);
            budget.release(held, true);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(operation + " of " + target + " interrupted");
            }
            throw new IOException(
                    operation + " of " + target + ": the S3 client neither asked for the body nor" + " failed within "
                            + CLIENT_WAIT,
                    e);
        }
        if (!subscribed.isDone()) {
            budget.release(held, true);
            Throwable failure = result.handle((response, error) -> error).join();
            throw new NotTaken(
                    operation + " of " + target + " failed before the body was sent: "
                            + S3Errors.translate(operation, target, failure).getMessage(),
                    failure);
        }
        StreamedUpload upload = new StreamedUpload(target, operation, budget, held, result, body.outputStream());
        result.whenComplete((response, failure) -> upload.finished(failure));
        return upload;
    }

    /**
     * Copies the bytes and hands full chunks to the client, blocking while it has enough queued.
     *
     * @throws IOException the upload's failure, if it failed already
     */
    void write(byte[] bytes, int offset, int length) throws IOException {
        while (length > 0) {
            if (chunk == null) {
                chunk = new byte[CHUNK_BYTES];
                chunkFill = 0;
            }
            int n = Math.min(length, CHUNK_BYTES - chunkFill);
            System.arraycopy(bytes, offset, chunk, chunkFill, n);
            chunkFill += n;
            offset += n;
            length -= n;
            if (chunkFill == CHUNK_BYTES) {
                handOnChunk();
            }
        }
    }

    /**
     * Ends the body and waits for the upload: CompleteMultipartUpload has been answered when this
     * returns.
     *
     * @throws IOException the upload's failure; the client has aborted the multipart upload then
     */
    PutObjectResponse complete() throws IOException {
        handOnChunk();
        try {
            body.close();
        } catch (RuntimeException e) {
            throwIfFailed();
            throw S3Errors.translate(operation, target, e);
        }
        return S3Errors.await(result, operation, target);
    }

    /**
     * Fails the body, so the client aborts the multipart upload, and waits up to {@link #CLIENT_WAIT} for
     * the upload to end (then cancels it). Never throws; a failure of the abort is left to the bucket's
     * lifecycle rule for incomplete multipart uploads, as for our engine.
     *
     * @return true if the upload ended within the wait
     */
    boolean abort() {
        body.cancel();
        try {
            result.get(CLIENT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException | CancellationException failedAsAsked) {
            return true;
        } catch (TimeoutException e) {
            result.cancel(true);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.cancel(true);
            return false;
        }
    }

    /** True once the upload has ended, either way. */
    boolean isDone() {
        return result.isDone();
    }

    /** Throws the upload's failure if it has failed. */
    void throwIfFailed() throws IOException {
        if (result.isCompletedExceptionally()) {
            S3Errors.await(result, operation, target);
        }
    }

    private void handOnChunk() throws IOException {
        if (chunk == null || chunkFill == 0) {
            return;
        }
        byte[] full = chunk;
        int length = chunkFill;
        chunk = null;
        throwIfFailed();
        synchronized (this) {
            writer = Thread.currentThread();
        }
        try {
            body.write(full, 0, length);
        } catch (RuntimeException e) {
            throwIfFailed();
            throw S3Errors.translate(operation, target, e);
        } finally {
            synchronized (this) {
                writer = null;
                if (writerInterrupted) {
                    writerInterrupted = false;
                    Thread.interrupted();
                }
            }
        }
    }

    private void finished(Throwable failure) {
        budget.release(heldBytes, true);
        if (failure != null) {
            synchronized (this) {
                if (writer != null) {
                    writerInterrupted = true;
                    writer.interrupt();
                }
            }
        }
    }

    /** The body as the client sees it, telling when the client subscribes (asks for the body). */
    private static final class SubscriptionSignal implements AsyncRequestBody {
        private final AsyncRequestBody body;
        private final CompletableFuture<Void> subscribed;

        SubscriptionSignal(AsyncRequestBody body, CompletableFuture<Void> subscribed) {
            this.body = body;
            this.subscribed = subscribed;
        }

        @Override
        public Optional<Long> contentLength() {
            return body.contentLength();
        }

        @Override
        public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
            subscribed.complete(null);
            body.subscribe(subscriber);
        }
    }

    /** The Transfer Manager's callback: counts the upload when the Transfer Manager says it started and completed. */
    private static final class CompletionCounter implements TransferListener {

        private final UploadMetrics metrics;

        CompletionCounter(UploadMetrics metrics) {
            this.metrics = metrics;
        }

        @Override
        public void transferInitiated(Context.TransferInitiated context) {
            metrics.transferManagerUploadStarted();
        }

        @Override
        public void transferComplete(Context.TransferComplete context) {
            metrics.transferManagerUploadCompleted();
        }
    }
}
