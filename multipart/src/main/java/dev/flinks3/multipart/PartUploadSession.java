package dev.flinks3.multipart;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadChecksum;
import dev.flinks3.transfer.WriteCondition;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

/**
 * One multipart upload seen from the writer: parts go up concurrently, at most
 * {@code maxPartsInFlight} at a time (the caller of {@link #uploadPart} blocks for a permit: that is
 * the per-stream back-pressure), and the session ends completed, aborted, or handed out.
 *
 * <p>The upload is created lazily by the first part (CreateMultipartUpload, then each UploadPart
 * chained on its upload id), or continues an existing upload id with parts already uploaded. Any
 * failure is kept (first cause wins, later ones suppressed) and fails every later call.
 *
 * <p>{@link #handOut()} marks the upload as referenced by persisted state (a recoverable writer's
 * checkpoint); from then on {@link #abort()} leaves it alone, because a completed checkpoint may still
 * need to commit it. A session that continues an existing upload id starts handed out, and its parts carry
 * the checksum that upload was created with ({@link UploadChecksum}). Thread-safe;
 * parts are numbered in the order {@link #uploadPart} is called.
 */
public final class PartUploadSession {

    private final ObjectClient client;
    private final S3Location target;
    private final UploadMetrics metrics;
    private final CommitGuard guard;
    private final Semaphore permits;
    private final FirstFailure failure = new FirstFailure();
    private final Object lock = new Object();
    private final TreeMap<Integer, CompletedPart> parts = new TreeMap<>();
    private final List<CompletableFuture<Void>> settling = new ArrayList<>();
    /** The requests of the parts in flight, cancelled by {@link #cancelAndAbort()}. */
    private final List<CompletableFuture<CompletedPart>> requests = new ArrayList<>();
    /** The engine's sessions whose upload exists and may be aborted: this one from creation to its end. */
    private final Set<PartUploadSession> openUploads;
    /** The checksum of a continued upload's parts; {@link UploadChecksum#AS_CONFIGURED} for an upload of our own. */
    private final UploadChecksum checksum;

    private CompletableFuture<String> uploadId;
    private int nextPartNumber;
    private boolean handedOut;
    private boolean ended;

    PartUploadSession(
            ObjectClient client,
            S3Location target,
            UploadMetrics metrics,
            CommitGuard guard,
            int maxPartsInFlight,
            String existingUploadId,
            List<CompletedPart> existingParts,
            UploadChecksum checksum,
            Set<PartUploadSession> openUploads) {
        this.client = client;
        this.checksum = checksum;
        this.openUploads = openUploads;
        this.target = target;
        this.metrics = metrics;
        this.guard = guard;
        this.permits = new Semaphore(maxPartsInFlight);
        if (existingUploadId != null) {
            // A continued upload is referenced by the persisted state it was resumed from.
            this.uploadId = CompletableFuture.completedFuture(existingUploadId);
            this.handedOut = true;
        } else if (!existingParts.isEmpty()) {
            throw new IllegalArgumentException("parts given without an upload id for " + target);
        }
        int previous = 0;
        for (CompletedPart part : existingParts) {
            if (part.partNumber() <= previous) {
                throw new IllegalArgumentException("parts of " + target + " not in ascending order: " + existingParts);
            }
            previous = part.partNumber();
            parts.put(part.partNumber(), part);
        }
        this.nextPartNumber = previous + 1;
    }

    /** The object this upload writes. */
    public S3Location target() {
        return target;
    }

    /** The number the next part will get. */
    public int nextPartNumber() {
        synchronized (lock) {
            return nextPartNumber;
        }
    }

    /** True once an upload exists or is being created (a part was sent, or the session continues an upload). */
    public boolean hasUpload() {
        synchronized (lock) {
            return uploadId != null;
        }
    }

    /** True if a part, the completion or a caller-reported error failed. */
    public boolean isFailed() {
        return failure.isFailed();
    }

    /** Records a failure that happened outside the session (first cause wins). */
    public void fail(Throwable error) {
        failure.record(error);
    }

    /**
     * Sends {@code body} as the next part, after waiting for a permit; returns once it is sent, not
     * answered. {@code whenDone} runs exactly once, when the body is no longer needed (the part was
     * answered, or it was never sent).
     *
     * @param body the part's bytes from position to limit; not modified until {@code whenDone} runs
     * @throws IOException if the session has failed (a wrapper naming the target, with the first cause)
     * @throws InterruptedIOException if interrupted while waiting for a permit
     */
    public void uploadPart(ByteBuffer body, Runnable whenDone) throws IOException {
        try {
            failure.throwIfFailed(target);
            acquirePermit();
        } catch (IOException e) {
            whenDone.run();
            throw e;
        }
        if (failure.isFailed()) {
            permits.release();
            whenDone.run();
            failure.throwIfFailed(target);
        }
        int partNumber;
        CompletableFuture<String> id;
        synchronized (lock) {
            if (ended) {
                permits.release();
                whenDone.run();
                throw new IllegalStateException("upload to " + target + " has ended");
            }
            partNumber = nextPartNumber++;
            if (uploadId == null) {
                uploadId = client.createMultipartUpload(target);
                openUploads.add(this);
                metrics.uploadStarted();
            }
            id = uploadId;
        }
        long size = body.remaining();
        metrics.partStarted();
        CompletableFuture<Void> settled = id.thenCompose(
                        upload -> track(client.uploadPart(target, upload, partNumber, body, checksum)))
                .handle((part, error) -> {
                    metrics.partFinished(size, error == null);
                    if (error != null) {
                        failure.record(error);
                    } else {
                        synchronized (lock) {
                            parts.put(partNumber, part);
                        }
                    }
                    whenDone.run();
                    permits.release();
                    return null;
                });
        synchronized (lock) {
            settling.removeIf(CompletableFuture::isDone);
            settling.add(settled);
        }
    }

    private CompletableFuture<CompletedPart> track(CompletableFuture<CompletedPart> request) {
        synchronized (lock) {
            requests.removeIf(CompletableFuture::isDone);
            requests.add(request);
        }
        return request;
    }

    /**
     * Waits until every part sent so far is answered.
     *
     * @return all parts of the upload so far, in part-number order
     * @throws IOException the first failure of the session
     * @throws InterruptedIOException if interrupted while waiting
     */
    public List<CompletedPart> awaitParts() throws IOException {
        Futures.await(allSettled(), "UploadPart", target);
        failure.throwFirst();
        synchronized (lock) {
            return new ArrayList<>(parts.values());
        }
    }

    /**
     * Waits for the parts, then completes the upload with all of them (CompleteMultipartUpload). A
     * failed request is checked with a HEAD: if the object has the ETag the parts give, the request took
     * effect and the call succeeds (see {@link CommitGuard}). Does not retry beyond the client.
     *
     * @return the object's ETag
     * @throws java.nio.file.FileAlreadyExistsException under {@link WriteCondition#IF_NONE_MATCH} if an
     *     object exists at the key
     * @throws IOException the first failure of the session or of the request; the upload is not aborted here
     */
    public String complete(WriteCondition condition) throws IOException {
        List<CompletedPart> all = awaitParts();
        String id = uploadIdOrNull();
        if (id == null || all.isEmpty()) {
            throw new IllegalStateException("no parts to complete for " + target);
        }
        WriteCondition sent = guard.prepareCompletion(target, condition);
        try {
            String eTag = Futures.await(
                    client.completeMultipartUpload(target, id, all, sent), "CompleteMultipartUpload", target);
            markCompleted();
            return eTag;
        } catch (IOException e) {
            String expected = ETags.ofParts(all);
            if (guard.tookEffect(target, expected, e)) {
                markCompleted();
                return expected;
            }
            failure.record(e);
            failure.throwFirst();
            throw e;
        }
    }

    /**
     * Marks the upload as referenced by persisted state: {@link #abort()} will not abort it. Returns the
     * upload id, or {@code null} if no upload was created yet. Call after {@link #awaitParts()}.
     */
    public String handOut() throws IOException {
        synchronized (lock) {
            handedOut = uploadId != null;
            if (handedOut && openUploads.remove(this)) {
                metrics.openUploadPersisted();
            }
        }
        return uploadIdOrNull();
    }

    /**
     * Aborts the upload (AbortMultipartUpload) once every part sent is answered, unless it was handed
     * out, completed or never created. S3 may keep parts that were still arriving during an abort, so
     * the abort waits for them first. Idempotent; does not block.
     *
     * @return a future that completes when the abort is done; it fails with the abort's error
     */
    public CompletableFuture<Void> abort() {
        CompletableFuture<String> id;
        CompletableFuture<Void> all;
        synchronized (lock) {
            if (ended || handedOut || uploadId == null) {
                endLocked();
                return CompletableFuture.completedFuture(null);
            }
            endLocked();
            id = uploadId;
            all = allSettledLocked();
        }
        return all.thenCompose(ignored -> id)
                .handle((upload, createFailed) -> createFailed != null
                        ? CompletableFuture.<Void>completedFuture(null)
                        : client.abortMultipartUpload(target, upload).thenRun(metrics::uploadAborted))
                .thenCompose(f -> f);
    }

    /**
     * Gives the upload up at once, for a filesystem that closes while parts are still uploading: cancels
     * the requests of the parts in flight (the HTTP client drops them), then aborts as {@link #abort()}
     * does. The stream's writer sees its parts fail. Does nothing to an upload handed out, completed or
     * never created. Idempotent; does not block.
     *
     * @return a future that completes when the abort is done; it fails with the abort's error
     */
    public CompletableFuture<Void> cancelAndAbort() {
        List<CompletableFuture<CompletedPart>> inFlight;
        synchronized (lock) {
            if (ended || handedOut) {
                return CompletableFuture.completedFuture(null);
            }
            inFlight = new ArrayList<>(requests);
        }
        failure.record(new InterruptedIOException("the S3 filesystem closed while " + target + " was uploading"));
        for (CompletableFuture<CompletedPart> request : inFlight) {
            request.cancel(true);
        }
        return abort();
    }

    /** The first failure recorded, or {@code null}. */
    Throwable failure() {
        return failure.first();
    }

    /** Throws the first failure itself (see {@link FirstFailure#throwFirst()}). */
    void throwFirstFailure() throws IOException {
        failure.throwFirst();
    }

    /** Throws a wrapper of the first failure naming the target. */
    void throwIfFailed() throws IOException {
        failure.throwIfFailed(target);
    }

    private void markCompleted() {
        synchronized (lock) {
            endLocked();
        }
        metrics.uploadCompleted();
    }

    /** Ends the session: completed, aborted or given up. */
    private void endLocked() {
        ended = true;
        if (openUploads.remove(this)) {
            metrics.openUploadEnded();
        }
    }

    private String uploadIdOrNull() throws IOException {
        CompletableFuture<String> id;
        synchronized (lock) {
            id = uploadId;
        }
        // A copy: an interrupt cancels what it waits for, and the upload id is still needed to abort.
        return id == null ? null : Futures.await(id.copy(), "CreateMultipartUpload", target);
    }

    private CompletableFuture<Void> allSettled() {
        synchronized (lock) {
            return allSettledLocked();
        }
    }

    private CompletableFuture<Void> allSettledLocked() {
        return CompletableFuture.allOf(settling.toArray(new CompletableFuture<?>[0]));
    }

    private void acquirePermit() throws InterruptedIOException {
        if (permits.tryAcquire()) {
            return;
        }
        long start = System.nanoTime();
        try {
            permits.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted =
                    new InterruptedIOException("interrupted while waiting to upload a part of " + target);
            interrupted.initCause(e);
            throw interrupted;
        } finally {
            metrics.waitedForPermit(System.nanoTime() - start);
        }
    }
}
