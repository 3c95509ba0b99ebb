package dev.flinks3.writer;

import dev.flinks3.multipart.ETags;
import dev.flinks3.multipart.MultipartUploadStream;
import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Flink's {@link RecoverableWriter} on S3 multipart uploads, for the exactly-once {@code FileSink}.
 *
 * <p>A stream uploads full parts as it goes; {@code persist()} returns the upload id, the parts and a
 * tail object with the bytes below the 5 MiB part minimum ({@link TailObjects}); {@code recover()}
 * continues the same upload with the tail taken back into the first new part; {@code closeForCommit()}
 * uploads the last part and the committer completes the upload. Nothing is visible at the target
 * before the commit. Recovering a state makes later states of the same stream unusable (their tails are
 * deleted; their parts would be overwritten), as truncating a file does on a local filesystem. A commit
 * deletes every tail left beside its target, including those Flink never cleans up.
 *
 * <p>Owns nothing: the client and the engine belong to the filesystem. Thread-safe.
 */
public final class S3RecoverableWriter implements RecoverableWriter {

    private final ObjectClient client;
    private final UploadEngine engine;
    private final TailStore tails;

    public S3RecoverableWriter(ObjectClient client, UploadEngine engine) {
        this.client = Objects.requireNonNull(client, "client");
        this.engine = Objects.requireNonNull(engine, "engine");
        this.tails = new TailStore(client);
    }

    /** A new stream to {@code path} ({@code s3://bucket/key}); sends nothing to S3 until a part fills. */
    @Override
    public RecoverableFsDataOutputStream open(Path path) {
        S3Location target = S3Location.of(path.toUri());
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        return new S3RecoverableFsDataOutputStream(client, engine, tails, out, TailObjects.newStreamId());
    }

    /**
     * Continues the stream from a persisted state: checks that the target is not committed yet and that
     * the upload still holds the recorded parts, reads the tail back, deletes the tails of later persists
     * and resumes the upload with the tail as the start of the next part. Deleting the later tails is
     * clean-up: if S3 refuses it, the recovery goes on and the tails are left for the commit (logged once
     * per writer as a warning), so a server that refuses deletes cannot make every restore fail.
     *
     * @throws IOException if the target already exists, the upload is gone (completed, aborted or
     *     expired) or lacks a recorded part, or the tail object is missing or of another length
     */
    @Override
    public RecoverableFsDataOutputStream recover(ResumeRecoverable resumable) throws IOException {
        S3ResumeRecoverable state = cast(resumable, S3ResumeRecoverable.class);
        S3Location target = state.target();
        checkNotCommitted(target);
        if (state.uploadId() != null) {
            checkParts(target, state.uploadId(), state.parts());
        }
        byte[] tail = state.tail() == null ? new byte[0] : tails.read(state.tail(), state.tailBytes());
        tails.deleteLaterTails(target, state.streamId(), state.length());
        MultipartUploadStream out = engine.resumeStream(target, state.uploadId(), state.parts());
        try {
            out.write(tail);
        } catch (IOException | RuntimeException e) {
            out.cancel();
            throw e;
        }
        return new S3RecoverableFsDataOutputStream(client, engine, tails, out, state.streamId());
    }

    /** True: tail objects of resumables that are no longer needed should be deleted. */
    @Override
    public boolean requiresCleanupOfRecoverableState() {
        return true;
    }

    /**
     * Deletes the resumable's tail object. Never touches the upload or any other resumable's tail (each
     * persist has its own), so state a newer resumable needs survives. Tails Flink never names here (of
     * a state a stream was recovered from) go when the target is committed, as does a tail whose delete
     * failed here: that failure is logged (once per writer as a warning), not thrown, since Flink calls
     * this after a checkpoint completed and the data is safe.
     *
     * @return true once nothing of this resumable's own is left; false if its tail could not be deleted
     */
    @Override
    public boolean cleanupRecoverableState(ResumeRecoverable resumable) {
        S3ResumeRecoverable state = cast(resumable, S3ResumeRecoverable.class);
        return state.tail() == null || tails.delete(state.tail());
    }

    @Override
    public RecoverableFsDataOutputStream.Committer recoverForCommit(CommitRecoverable recoverable) {
        return new S3Committer(client, engine, tails, cast(recoverable, S3CommitRecoverable.class));
    }

    @Override
    public SimpleVersionedSerializer<CommitRecoverable> getCommitRecoverableSerializer() {
        return S3CommitRecoverableSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<ResumeRecoverable> getResumeRecoverableSerializer() {
        return S3ResumeRecoverableSerializer.INSTANCE;
    }

    /** True: streams resume from persisted state. */
    @Override
    public boolean supportsResume() {
        return true;
    }

    static <T> T cast(Object recoverable, Class<T> type) {
        if (!type.isInstance(recoverable)) {
            throw new IllegalArgumentException("Expected a " + type.getSimpleName() + " of the S3 recoverable writer,"
                    + " got "
                    + (recoverable == null ? "null" : recoverable.getClass().getName()));
        }
        return type.cast(recoverable);
    }

    private void checkNotCommitted(S3Location target) throws IOException {
        try {
            client.head(target);
        } catch (FileNotFoundException expected) {
            return;
        }
        throw new IOException("Cannot resume writing " + target + ": an object already exists there (the stream was"
                + " committed, or another writer created it)");
    }

    private void checkParts(S3Location target, String uploadId, List<CompletedPart> recorded) throws IOException {
        List<CompletedPart> uploaded;
        try {
            uploaded = client.listParts(target, uploadId);
        } catch (FileNotFoundException gone) {
            throw new IOException(
                    "Cannot resume writing " + target + ": multipart upload " + uploadId
                            + " no longer exists (completed, aborted or expired)",
                    gone);
        }
        Map<Integer, String> eTags = new HashMap<>();
        for (CompletedPart part : uploaded) {
            eTags.put(part.partNumber(), part.eTag());
        }
        for (CompletedPart part : recorded) {
            String eTag = eTags.get(part.partNumber());
            if (!ETags.same(eTag, part.eTag())) {
                throw new IOException("Cannot resume writing " + target + ": part " + part.partNumber() + " of upload "
                        + uploadId + " is " + (eTag == null ? "missing" : "another one (ETag " + eTag + ")")
                        + ", the recoverable recorded ETag " + part.eTag());
            }
        }
    }
}
