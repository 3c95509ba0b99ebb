package dev.flinks3.multipart;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.UploadStream;
import dev.flinks3.transfer.WriteCondition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An output stream to one S3 object that uploads full parts in the background while the caller keeps
 * writing.
 *
 * <p>Bytes fill a part buffer; when it is full and more bytes arrive, the part is sent as an UploadPart
 * (the first one creates the multipart upload) and writing continues in a new buffer. A writer blocks
 * when its stream has {@code maxPartsInFlightPerStream} parts being uploaded, or when the process-wide
 * buffer budget is used up. {@link #close()} commits: a stream that never filled a part is sent as one
 * PutObject; otherwise the last part is sent and the upload completed as soon as every part is
 * answered. Nothing is visible at the key before that.
 *
 * <p>Any failure marks the stream failed: later writes throw at once, and {@code close()} aborts the
 * upload and throws the first cause (later ones suppressed). A second {@code close()} does nothing. An
 * object holds at most 10,000 parts ({@link PartSizing#maxObjectBytes()}); a write beyond that fails
 * the stream with a message saying so.
 *
 * <p>For a recoverable writer: {@link #persist()} makes what was written durable without closing,
 * {@link #closeForCommit()} uploads the rest without completing, {@link #cancel()} releases
 * everything and aborts only an upload that no persisted state refers to.
 *
 * <p>One writer thread. {@code close()} and {@code cancel()} may come from another thread and then wait
 * for a running write to return (a write blocked for a permit or budget returns on interrupt).
 */
public final class MultipartUploadStream extends UploadStream {

    private static final Logger LOG = LoggerFactory.getLogger(MultipartUploadStream.class);
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final ObjectClient client;
    private final PartUploadSession session;
    private final WriteCondition condition;
    private final PartBufferPool pool;
    private final PartSizing sizing;
    private final CommitGuard guard;
    private final UploadMetrics metrics;
    private PartBuffer current;
    private boolean partSent;
    private long position;
    private boolean closed;

    MultipartUploadStream(
            ObjectClient client,
            PartUploadSession session,
            WriteCondition condition,
            PartBufferPool pool,
            PartSizing sizing,
            CommitGuard guard,
            UploadMetrics metrics,
            long startPosition) {
        this.client = client;
        this.session = session;
        this.condition = condition;
        this.pool = pool;
        this.sizing = sizing;
        this.guard = guard;
        this.metrics = metrics;
        this.position = startPosition;
    }

    /** The object this stream writes. */
    public S3Location target() {
        return session.target();
    }

    /** Bytes written so far, counting a resumed upload's earlier parts. */
    @Override
    public synchronized long getPos() {
        return position;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        ensureOpen();
        try {
            partWithRoom().write(b);
            position++;
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int len) throws IOException {
        Objects.checkFromIndexSize(offset, len, bytes.length);
        ensureOpen();
        try {
            while (len > 0) {
                int n = partWithRoom().write(bytes, offset, len);
                offset += n;
                len -= n;
                position += n;
            }
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
    }

    /**
     * Does nothing: S3 has no partial objects, so bytes become durable only through {@link #close()}
     * or {@link #persist()}.
     */
    @Override
    public void flush() {}

    /**
     * Commits the object: one PutObject if no part was ever sent, else the last part and
     * CompleteMultipartUpload, with the stream's write condition. On failure aborts the upload (waiting
     * for the abort) and throws the first cause. Idempotent.
     *
     * @throws java.nio.file.FileAlreadyExistsException if the condition is no-overwrite and an object exists
     * @throws IOException the first failure of the stream
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            session.throwFirstFailure();
            if (session.nextPartNumber() == 1) {
                putWholeObject();
                Futures.quietly(session.abort()); // an upload resumed with no parts is not needed
            } else {
                sendCurrentPart();
                session.complete(condition);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw abortAfter(e);
        } finally {
            releaseCurrent();
        }
    }

    /**
     * Makes everything written so far durable without closing: sends the current buffer as a part if it
     * holds at least S3's 5 MiB minimum (with {@link PartSizing#uniform() uniform parts}: only if it is
     * full), waits until every part is answered and hands the upload out (a later
     * {@link #cancel()} or failure no longer aborts it).
     *
     * @return the upload id and parts, and the tail: the bytes after the last part (under 5 MiB, or under
     *     one part with uniform parts), as a view valid until the next write
     * @throws IOException the first failure; the stream is failed then
     */
    public synchronized UploadSnapshot persist() throws IOException {
        ensureOpen();
        try {
            if (current != null
                    && (sizing.uniform() ? current.isFull() : current.size() >= UploadSettings.MIN_PART_SIZE)) {
                sendCurrentPart();
            }
            List<CompletedPart> parts = session.awaitParts();
            String uploadId = session.handOut();
            return new UploadSnapshot(uploadId, parts, current == null ? EMPTY : current.contents(), position);
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
    }

    /**
     * Closes the stream for a later commit: sends the remaining bytes as the last part, waits for all
     * parts and hands the upload out, without completing it. A stream that received no bytes at all
     * returns no upload id and no parts (the committer then writes a zero-byte object). On failure
     * aborts the upload unless it was handed out earlier, and throws the first cause.
     *
     * @return the upload id, all parts and the length; the tail is empty
     */
    public synchronized UploadSnapshot closeForCommit() throws IOException {
        if (closed) {
            throw new IOException("Stream to " + session.target() + " is closed");
        }
        closed = true;
        try {
            session.throwFirstFailure();
            sendCurrentPart();
            List<CompletedPart> parts = session.awaitParts();
            String uploadId = session.handOut();
            return new UploadSnapshot(uploadId, parts, EMPTY, position);
        } catch (IOException | RuntimeException | Error e) {
            throw abortAfter(e);
        } finally {
            releaseCurrent();
        }
    }

    /**
     * Gives up the stream without committing: releases its buffers and aborts the upload in the
     * background unless it was handed out by {@link #persist()}. Idempotent; does not block on S3.
     */
    public synchronized void cancel() {
        if (closed) {
            return;
        }
        closed = true;
        releaseCurrent();
        session.abort().whenComplete((ignored, error) -> {
            if (error != null) {
                LOG.warn(
                        "Could not abort the multipart upload to {}; a bucket lifecycle rule for incomplete"
                                + " multipart uploads removes it",
                        session.target(),
                        Futures.unwrap(error));
            }
        });
    }

    @Override
    public String toString() {
        return "MultipartUploadStream{" + session.target() + ", position=" + position + "}";
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream to " + session.target() + " is closed");
        }
        session.throwIfFailed();
    }

    /** The buffer to write into: sends a full one first, starts a new one lazily. */
    private PartBuffer partWithRoom() throws IOException {
        if (current != null && current.isFull()) {
            sendCurrentPart();
        }
        if (current == null) {
            int partNumber = session.nextPartNumber();
            if (partNumber > CompletedPart.MAX_PART_NUMBER) {
                throw new IOException(
                        "Object " + session.target() + " would exceed the " + CompletedPart.MAX_PART_NUMBER
                                + " parts S3 allows in one upload: at most " + sizing.maxObjectBytes()
                                + " bytes with a base part size of " + sizing.basePartBytes() + " bytes");
            }
            int partBytes = sizing.partBytes(partNumber);
            current = partSent ? PartBuffer.full(pool, partBytes) : PartBuffer.growing(pool, partBytes);
        }
        return current;
    }

    /** Sends the current buffer, if it holds bytes, as the next part; the session releases it when answered. */
    private void sendCurrentPart() throws IOException {
        PartBuffer part = current;
        if (part == null || part.size() == 0) {
            return;
        }
        current = null;
        partSent = true;
        part.markInFlight();
        session.uploadPart(part.contents(), part::release);
    }

    private void putWholeObject() throws IOException {
        ByteBuffer body = current == null ? EMPTY : current.contents();
        if (current != null) {
            current.markInFlight();
        }
        WriteCondition sent = guard.preparePut(session.target(), condition);
        try {
            Futures.await(client.put(session.target(), body, sent), "PutObject", session.target());
        } catch (IOException e) {
            if (!guard.tookEffect(session.target(), ETags.ofBody(body), e)) {
                throw e;
            }
        }
        metrics.objectPut(body.remaining());
    }

    /**
     * Records {@code error} and throws: {@code error} itself if it is the stream's first failure,
     * otherwise a wrapper naming the target with the first failure as its cause.
     */
    private IOException failed(Throwable error) throws IOException {
        session.fail(error);
        if (session.failure() == error) {
            session.throwFirstFailure();
        }
        session.throwIfFailed();
        throw new IllegalStateException("a recorded failure was not thrown", error);
    }

    /** Records {@code error}, aborts the upload unless handed out (waiting), and throws the first cause itself. */
    private IOException abortAfter(Throwable error) throws IOException {
        session.fail(error);
        Throwable abortFailure = Futures.quietly(session.abort());
        if (abortFailure != null) {
            session.fail(abortFailure);
        }
        session.throwFirstFailure();
        throw new IllegalStateException("a recorded failure was not thrown", error);
    }

    private void releaseCurrent() {
        if (current != null) {
            current.release();
            current = null;
        }
    }
}
