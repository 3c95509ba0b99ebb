package dev.flinks3.multipart;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadChecksum;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.UploadStreams;
import dev.flinks3.transfer.WriteCondition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The upload engine of one process: opens {@link MultipartUploadStream}s that share one buffer budget
 * ({@link UploadSettings#maxBufferedBytesPerProcess()}), one buffer pool and one set of metrics, and talk to
 * S3 through one {@link ObjectClient}.
 *
 * <p>Holds no threads: parts are uploaded by the object client's asynchronous requests, and writers
 * wait for permits and budget on their own threads. The client stays owned by the caller. No static
 * state; thread-safe.
 */
public final class UploadEngine implements UploadStreams {

    private final ObjectClient client;
    private final UploadSettings settings;
    private final UploadBudget budget;
    private final PartSizing sizing;
    private final PartBufferPool pool;
    private final UploadMetrics metrics;
    private final CommitGuard guard;
    private final Set<PartUploadSession> openUploads = ConcurrentHashMap.newKeySet();

    /**
     * @param client the S3 seam (not closed by the engine)
     * @param settings part size, parts in flight per stream, process buffer bound, conditional writes
     */
    public UploadEngine(ObjectClient client, UploadSettings settings) {
        this(client, settings, new UploadBuffers(settings.maxBufferedBytesPerProcess()));
    }

    /**
     * An engine whose streams take their part buffers from {@code buffers}, shared with the engines of
     * the process's other client configurations: the buffer limit is {@code buffers}' limit, not
     * {@code settings}' {@link UploadSettings#maxBufferedBytesPerProcess()}.
     *
     * @param client the S3 seam (not closed by the engine)
     * @param settings part size, parts in flight per stream, conditional writes
     * @param buffers the process's part buffers and their budget (not owned)
     */
    public UploadEngine(ObjectClient client, UploadSettings settings, UploadBuffers buffers) {
        this.client = Objects.requireNonNull(client, "client");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.budget = buffers.budget();
        this.sizing = new PartSizing(
                settings.partSizeBytes(),
                budget.limitBytes(),
                settings.maxPartsInFlightPerStream(),
                settings.uniformParts(),
                settings.maxGrownPartBytes());
        // One stream's worth of idle buffers: keeping what a burst of streams had in use would hold
        // that much heap after the burst for as long as the collector is not short of memory.
        this.pool = buffers.pool(sizing.basePartBytes(), settings.maxPartsInFlightPerStream() + 1);
        this.metrics = new UploadMetrics(budget);
        this.guard = new CommitGuard(client, settings.conditionalWritesEnabled());
    }

    /**
     * Opens a stream that writes {@code target} when closed.
     *
     * @param condition {@link WriteCondition#IF_NONE_MATCH} to fail the commit with
     *     {@link java.nio.file.FileAlreadyExistsException} if an object exists (NO_OVERWRITE)
     */
    @Override
    public MultipartUploadStream openStream(S3Location target, WriteCondition condition) {
        return newStream(target, condition, null, List.of(), UploadChecksum.AS_CONFIGURED);
    }

    /**
     * Opens a stream that continues an existing multipart upload after {@code parts}: its first part
     * gets the next part number and {@code getPos()} starts at the parts' total size. Writes the bytes of
     * a persisted tail first to take them back into the first new part. The upload counts as handed
     * out (the persisted state it came from refers to it): failure or cancellation never aborts it.
     * With a {@code null} upload id (and no parts) it behaves like {@link #openStream}.
     *
     * @param parts the parts already uploaded, in ascending part-number order
     */
    public MultipartUploadStream resumeStream(S3Location target, String uploadId, List<CompletedPart> parts) {
        return resumeStream(target, uploadId, parts, UploadChecksum.AS_CONFIGURED);
    }

    /**
     * {@link #resumeStream(S3Location, String, List)} of an upload created with {@code checksum}: every new part
     * carries that checksum, whatever the client's checksum settings are now (S3 refuses a part whose checksum
     * differs from the upload's, see {@link UploadChecksum}).
     *
     * @param checksum what the upload was created with; {@link UploadChecksum#AS_CONFIGURED} where unknown
     */
    public MultipartUploadStream resumeStream(
            S3Location target, String uploadId, List<CompletedPart> parts, UploadChecksum checksum) {
        return newStream(target, WriteCondition.NONE, uploadId, parts, Objects.requireNonNull(checksum, "checksum"));
    }

    /**
     * Completes an upload from recorded parts (a recoverable writer's commit): CompleteMultipartUpload,
     * and after a failed response a HEAD that accepts the object if it has the ETag the parts give
     * (the first attempt took effect). Does not abort on failure and retries only as the client does.
     *
     * @return the object's ETag
     * @throws IOException the request's failure, e.g. {@link dev.flinks3.transfer.S3RequestException}
     *     NoSuchUpload if the upload is gone and no matching object exists
     */
    public String completeUpload(
            S3Location target, String uploadId, List<CompletedPart> parts, WriteCondition condition)
            throws IOException {
        Objects.requireNonNull(uploadId, "uploadId");
        return session(target, uploadId, parts, UploadChecksum.AS_CONFIGURED).complete(condition);
    }

    /**
     * True if this server honours {@code If-None-Match: *} on a CompleteMultipartUpload (conditional
     * writes on, and a probe next to {@code near} refused), so that another
     * uploader may send no-overwrite with the completion; false where this engine checks with a HEAD
     * (also where the probe failed: the next call probes again).
     */
    public boolean completionHonoursNoOverwrite(S3Location near) {
        return guard.completionCarriesCondition(near);
    }

    /**
     * Gives up every multipart upload of this engine's streams that is still open, for a filesystem that
     * closes while parts are uploading: cancels the parts in flight and sends AbortMultipartUpload, so no
     * upload is left at the server for a lifecycle rule to remove. Uploads handed out to persisted state
     * (the recoverable writer's) are left alone. The streams fail on their next call.
     *
     * @param waitMs how long to wait for the aborts, in ms
     * @return the number of uploads whose abort did not finish in time or failed (0 if all were aborted)
     * @throws InterruptedException if interrupted while waiting
     */
    public int abortOpenUploads(long waitMs) throws InterruptedException {
        List<CompletableFuture<Void>> aborts = new ArrayList<>();
        for (PartUploadSession session : List.copyOf(openUploads)) {
            aborts.add(session.cancelAndAbort());
        }
        try {
            CompletableFuture.allOf(aborts.toArray(new CompletableFuture<?>[0])).get(waitMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // counted below
        }
        int notAborted = 0;
        for (CompletableFuture<Void> abort : aborts) {
            if (!abort.isDone() || abort.isCompletedExceptionally()) {
                notAborted++;
            }
        }
        return notAborted;
    }

    /** Counters of all streams of this engine, and the gauges of the (shared) budget. */
    public UploadMetrics metrics() {
        return metrics;
    }

    /** The process-wide buffer bound shared by all streams (of every engine on the same {@link UploadBuffers}). */
    public UploadBudget budget() {
        return budget;
    }

    /** Part sizes by part number, and the largest object one upload can hold. */
    public PartSizing partSizing() {
        return sizing;
    }

    private MultipartUploadStream newStream(
            S3Location target,
            WriteCondition condition,
            String uploadId,
            List<CompletedPart> parts,
            UploadChecksum checksum) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(condition, "condition");
        long start = 0;
        for (CompletedPart part : parts) {
            start += part.sizeBytes();
        }
        return new MultipartUploadStream(
                client, session(target, uploadId, parts, checksum), condition, pool, sizing, guard, metrics, start);
    }

    private PartUploadSession session(
            S3Location target, String uploadId, List<CompletedPart> parts, UploadChecksum checksum) {
        return new PartUploadSession(
                client,
                target,
                metrics,
                guard,
                settings.maxPartsInFlightPerStream(),
                uploadId,
                parts,
                checksum,
                openUploads);
    }
}
