package dev.flinks3.multipart.crt;

import dev.flinks3.multipart.MultipartUploadStream;
import dev.flinks3.multipart.UploadBudget;
import dev.flinks3.multipart.UploadMetrics;
import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadStream;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.options.S3Options;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An output stream to one S3 object for {@code s3.client: crt}. The first part's bytes are held here
 * (within the process-wide {@link UploadBudget}); a stream closed before they exceed one part is one
 * PutObject through our engine. When more bytes come, the stream is handed to the S3 Transfer Manager as
 * a body of unknown length ({@link StreamedUpload}) or, where {@link TransferManagerUploads} says it
 * cannot keep the engine's promises, to our engine's {@link MultipartUploadStream}; the held bytes go
 * first.
 *
 * <p>As with our engine: nothing is visible at the key before {@link #close()} succeeds; any failure
 * marks the stream failed, later writes throw it, and {@code close()} aborts the multipart upload and
 * throws the first cause; a second {@code close()} does nothing. A Transfer Manager upload holds at most
 * 10,000 parts of the part size; a write beyond that fails the stream with a message naming the size and
 * what to change. (The stream cannot move to our engine then: the Transfer Manager's upload can be
 * completed only at the target key, which would show part of the object there, and the client hands out
 * neither its upload id nor its parts' ETags.)
 *
 * <p>One writer thread; {@code close()} from another thread waits for a running write to return.
 */
public final class TransferManagerUploadStream extends UploadStream {

    private static final Logger LOG = LoggerFactory.getLogger(TransferManagerUploadStream.class);
    /** First capacity of the held first part; it doubles up to the part size. */
    private static final int FIRST_HOLD_BYTES = 64 * 1024;

    private final TransferManagerUploads uploads;
    private final S3Location target;
    private final WriteCondition condition;
    private final UploadBudget budget;
    private final int partBytes;
    private final long capBytes;
    private byte[] firstPart = new byte[0];
    private int firstPartSize;
    private MultipartUploadStream engineStream;
    private StreamedUpload streamed;
    private long position;
    private boolean closed;
    private IOException failure;

    /**
     * @param capBytes the most bytes the Transfer Manager may take (its 10,000 parts of the part size; a test
     *     gives less): a write beyond it fails the stream
     */
    TransferManagerUploadStream(
            TransferManagerUploads uploads, S3Location target, WriteCondition condition, long capBytes) {
        this.uploads = uploads;
        this.target = target;
        this.condition = condition;
        this.budget = uploads.engine().budget();
        this.partBytes = uploads.partBytes();
        this.capBytes = capBytes;
    }

    /** The object this stream writes. */
    public S3Location target() {
        return target;
    }

    /** Bytes written so far. */
    @Override
    public synchronized long getPos() {
        return position;
    }

    /** True once the stream was handed to the Transfer Manager (it outgrew one part and the Transfer Manager takes it). */
    public synchronized boolean usesTransferManager() {
        return streamed != null;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (closed) {
            throw new IOException("Stream to " + target + " is closed");
        }
        if (failure != null) {
            throw failure;
        }
        try {
            if (engineStream == null && streamed == null) {
                if ((long) firstPartSize + length <= partBytes) {
                    hold(bytes, offset, length);
                    position += length;
                    return;
                }
                handOver();
            }
            if (engineStream != null) {
                engineStream.write(bytes, offset, length);
            } else {
                checkPartLimit(length);
                streamed.write(bytes, offset, length);
            }
            position += length;
        } catch (IOException e) {
            failure = e;
            throw e;
        } catch (RuntimeException e) {
            failure = new IOException("Writing to " + target + " failed", e);
            throw failure;
        }
    }

    /**
     * Commits the object: one PutObject through our engine if the stream never outgrew one part, else
     * the end of the Transfer Manager's upload (its CompleteMultipartUpload) or of our engine's. On failure
     * aborts the multipart upload (waiting for it) and throws the first cause. Idempotent. ({@code flush()}
     * does nothing: S3 has no partial objects.)
     *
     * @throws java.nio.file.FileAlreadyExistsException if the condition is no-overwrite and an object exists
     * @throws IOException the first failure of the stream
     */
    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            commit();
        }
    }

    private void commit() throws IOException {
        try {
            if (engineStream != null) {
                engineStream.close();
            } else if (streamed != null) {
                closeStreamed();
            } else {
                putFirstPart();
            }
        } finally {
            releaseFirstPart();
        }
    }

    @Override
    public synchronized String toString() {
        return "TransferManagerUploadStream{" + target + ", position=" + position
                + (streamed != null ? ", Transfer Manager" : engineStream != null ? ", engine" : "") + "}";
    }

    private void hold(byte[] bytes, int offset, int length) throws IOException {
        int needed = firstPartSize + length;
        if (needed > firstPart.length) {
            int capacity =
                    (int) Math.min(partBytes, Math.max(needed, Math.max(FIRST_HOLD_BYTES, 2L * firstPart.length)));
            budget.acquire(capacity - firstPart.length);
            firstPart = Arrays.copyOf(firstPart, capacity);
        }
        System.arraycopy(bytes, offset, firstPart, firstPartSize, length);
        firstPartSize = needed;
    }

    /** Starts the Transfer Manager's upload, or our engine's stream, and gives it the held bytes. */
    private void handOver() throws IOException {
        if (uploads.takes(target, condition)) {
            try {
                streamed = uploads.start(target, condition);
            } catch (NotTaken refused) {
                uploads.notTaken(target, refused);
            }
        }
        if (streamed != null) {
            uploads.engine().metrics().uploadStarted();
            streamed.write(firstPart, 0, firstPartSize);
        } else {
            engineStream = uploads.engine().openStream(target, condition);
            engineStream.write(firstPart, 0, firstPartSize);
        }
        LOG.debug("{} outgrew one part: {}", target, streamed != null ? "Transfer Manager" : "engine");
        releaseFirstPart();
    }

    private void checkPartLimit(int length) throws IOException {
        if (position + length > capBytes) {
            throw new IOException("Object " + target + " would exceed the " + CompletedPart.MAX_PART_NUMBER
                    + " parts S3 allows in one upload: the Transfer Manager (" + S3Options.CLIENT.key()
                    + ": crt) uploads a stream in parts of exactly " + S3Options.PART_SIZE.key() + " ("
                    + partBytes + " bytes), so at most " + capBytes + " bytes; nothing is written at the key."
                    + " Raise " + S3Options.PART_SIZE.key() + ", or use " + S3Options.CLIENT.key()
                    + ": sdk, whose parts grow with the object (up to "
                    + uploads.engine().partSizing().maxObjectBytes() + " bytes here)");
        }
    }

    private void closeStreamed() throws IOException {
        UploadMetrics metrics = uploads.engine().metrics();
        if (failure == null) {
            try {
                streamed.complete();
                long parts = Math.max(1, (position + uploads.partBytes() - 1) / uploads.partBytes());
                metrics.partsUploaded(parts, position);
                metrics.uploadCompleted();
                metrics.openUploadEnded();
                return;
            } catch (IOException | RuntimeException e) {
                failure = e instanceof IOException
                        ? (IOException) e
                        : new IOException("Upload to " + target + " failed", e);
            }
        } else {
            failure = failedEarlier();
        }
        if (!streamed.abort()) {
            LOG.warn(
                    "The Transfer Manager's upload to {} did not end within {} after it was aborted; a bucket"
                            + " lifecycle rule for incomplete multipart uploads removes what it left",
                    target,
                    StreamedUpload.CLIENT_WAIT);
        }
        metrics.uploadAborted();
        metrics.openUploadEnded();
        throw failure;
    }

    private void putFirstPart() throws IOException {
        if (failure != null) {
            throw failedEarlier();
        }
        MultipartUploadStream single = uploads.engine().openStream(target, condition);
        try {
            single.write(firstPart, 0, firstPartSize);
        } finally {
            single.close();
        }
    }

    /** A new exception for close() with the failure a write threw as its cause (never the same instance twice). */
    private IOException failedEarlier() {
        return new IOException("Stream to " + target + " failed: " + failure.getMessage(), failure);
    }

    private void releaseFirstPart() {
        if (firstPart.length > 0) {
            budget.release(firstPart.length);
        }
        firstPart = new byte[0];
        firstPartSize = 0;
    }
}
