package dev.flinks3.writer;

import dev.flinks3.multipart.MultipartUploadStream;
import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadChecksum;
import dev.flinks3.transfer.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
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
 * <p>A resumed upload's new parts carry the checksum the upload was created with ({@link UploadChecksum}),
 * whatever the client's checksum settings are now: S3 refuses parts whose checksum differs from the
 * upload's.
 *
 * <p>The state of the other S3 plugins' writers ({@link ForeignRecoverable}: flink-s3-fs-hadoop's and
 * flink-s3-fs-native's) is resumed and committed too, with the same checks: their upload is continued or
 * completed, and their incomplete-part object read back into the first new part (and deleted once the target
 * is committed). Their keys name objects of this filesystem's bucket.
 *
 * <p>Owns nothing: the client and the engine belong to the filesystem. Thread-safe.
 */
public final class S3RecoverableWriter implements RecoverableWriter {

    private final ObjectClient client;
    private final UploadEngine engine;
    private final S3Location root;
    private final TailStore tails;

    /**
     * @param root the filesystem's bucket ({@code scheme://bucket/}), where other plugins' recorded keys are
     */
    public S3RecoverableWriter(ObjectClient client, UploadEngine engine, S3Location root) {
        this.client = Objects.requireNonNull(client, "client");
        this.engine = Objects.requireNonNull(engine, "engine");
        this.root = Objects.requireNonNull(root, "root");
        this.tails = new TailStore(client);
    }

    /**
     * A new stream to {@code path} ({@code s3://bucket/key}); sends nothing to S3 until a part fills.
     *
     * @throws IOException if the path names no valid S3 location (its key longer than S3's 1,024 bytes)
     */
    @Override
    public RecoverableFsDataOutputStream open(Path path) throws IOException {
        S3Location target;
        try {
            target = S3Location.of(path.toUri());
        } catch (IllegalArgumentException e) {
            throw new IOException("Cannot write " + path + ": " + e.getMessage(), e);
        }
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        return new S3RecoverableFsDataOutputStream(client, engine, tails, out, TailObjects.newStreamId());
    }

    /**
     * Continues the stream from a persisted state: checks that the target is not committed yet and that
     * the upload still holds the recorded parts, reads the tail back, deletes the tails of later persists
     * and resumes the upload with the tail as the start of the next part. Deleting the later tails is
     * clean-up: if S3 refuses it, the recovery goes on and the tails are left for the commit (logged once
     * per writer as a warning), so a server that refuses deletes cannot make every restore fail. Parts the
     * state recorded without their CRC32C (serializer version 1) get it from the listing of the upload, which
     * also tells the checksum new parts carry where the state did not record it.
     *
     * <p>Another plugin's state ({@link ForeignRecoverable}) is continued the same way, its parts' sizes taken
     * from the listing of the upload and its incomplete-part object read back as the tail.
     *
     * @throws IOException if the target already exists, the upload is gone (completed, aborted or
     *     expired) or lacks a recorded part, or the tail object is missing or of another length
     */
    @Override
    public RecoverableFsDataOutputStream recover(ResumeRecoverable resumable) throws IOException {
        if (resumable instanceof ForeignRecoverable) {
            return recoverForeign((ForeignRecoverable) resumable);
        }
        S3ResumeRecoverable state = cast(resumable, S3ResumeRecoverable.class);
        S3Location target = state.target();
        checkNotCommitted(target);
        List<CompletedPart> parts = state.parts();
        UploadChecksum checksum = state.checksum();
        if (state.uploadId() != null) {
            parts = uploadedParts(target, state.uploadId(), parts, "the recoverable");
            if (checksum == UploadChecksum.AS_CONFIGURED) {
                checksum = RecoverableFields.checksumOfParts(parts);
            }
        }
        byte[] tail = state.tail() == null ? new byte[0] : tails.read(state.tail(), state.tailBytes());
        tails.deleteLaterTails(target, state.streamId(), state.length());
        return resume(target, state.uploadId(), parts, checksum, tail, state.streamId(), state.foreignTailKey());
    }

    private RecoverableFsDataOutputStream recoverForeign(ForeignRecoverable state) throws IOException {
        S3Location target = foreignTarget(state);
        checkNotCommitted(target);
        String recorded = state.writer().plugin() + "'s recoverable";
        List<CompletedPart> parts;
        try {
            parts = uploadedParts(target, state.uploadId(), state.parts(), recorded);
        } catch (IOException lost) {
            throw new IOException(lost.getMessage() + ". " + state.writer().lostUploadAdvice(), lost);
        }
        long partBytes = 0;
        for (CompletedPart part : parts) {
            partBytes += part.sizeBytes();
        }
        if (partBytes != state.bytesInParts()) {
            throw new IOException("Cannot resume writing " + target + ": the parts of upload " + state.uploadId()
                    + " hold " + partBytes + " bytes, " + recorded + " recorded " + state.bytesInParts());
        }
        byte[] tail = state.incompleteBytes() == 0
                ? new byte[0]
                : tails.read(target.withKey(state.incompleteKey()), state.incompleteBytes());
        return resume(
                target,
                state.uploadId(),
                parts,
                RecoverableFields.checksumOfParts(parts),
                tail,
                TailObjects.newStreamId(),
                state.incompleteKey());
    }

    private RecoverableFsDataOutputStream resume(
            S3Location target,
            String uploadId,
            List<CompletedPart> parts,
            UploadChecksum checksum,
            byte[] tail,
            String streamId,
            String foreignTailKey)
            throws IOException {
        MultipartUploadStream out = engine.resumeStream(target, uploadId, parts, checksum);
        try {
            out.write(tail);
        } catch (IOException | RuntimeException e) {
            out.cancel();
            throw e;
        }
        return new S3RecoverableFsDataOutputStream(client, engine, tails, out, streamId, checksum, foreignTailKey);
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
     * this after a checkpoint completed and the data is safe. Another plugin's resumable loses its
     * incomplete-part object.
     *
     * @return true once nothing of this resumable's own is left; false if its tail could not be deleted
     */
    @Override
    public boolean cleanupRecoverableState(ResumeRecoverable resumable) {
        if (resumable instanceof ForeignRecoverable) {
            ForeignRecoverable foreign = (ForeignRecoverable) resumable;
            if (foreign.incompleteKey() == null) {
                return true;
            }
            try {
                return tails.delete(foreignTarget(foreign).withKey(foreign.incompleteKey()));
            } catch (IOException | IllegalArgumentException e) {
                return false;
            }
        }
        S3ResumeRecoverable state = cast(resumable, S3ResumeRecoverable.class);
        return state.tail() == null || tails.delete(state.tail());
    }

    /**
     * The committer of a closed stream's state, or of another plugin's ({@link ForeignRecoverable}), which
     * learns its parts from a listing of the upload when it commits.
     *
     * @throws IOException if another plugin's state names a key that is no valid S3 location
     */
    @Override
    public RecoverableFsDataOutputStream.Committer recoverForCommit(CommitRecoverable recoverable) throws IOException {
        if (recoverable instanceof ForeignRecoverable) {
            ForeignRecoverable foreign = (ForeignRecoverable) recoverable;
            return new ForeignCommitter(client, engine, tails, foreign, foreignTarget(foreign));
        }
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

    private S3Location foreignTarget(ForeignRecoverable state) throws IOException {
        try {
            return root.withKey(state.key());
        } catch (IllegalArgumentException e) {
            throw new IOException(
                    state.writer().plugin() + "'s recoverable names no valid S3 location in " + root + ": "
                            + e.getMessage(),
                    e);
        }
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

    /**
     * The recorded parts as the upload holds them (one ListParts): each must be there with the recorded
     * ETag; a size or CRC32C the record lacks is taken from the listing.
     *
     * @param recorder who recorded the parts, for messages
     * @throws IOException if the upload is gone or lacks a recorded part
     */
    private List<CompletedPart> uploadedParts(
            S3Location target, String uploadId, List<CompletedPart> recorded, String recorder) throws IOException {
        List<CompletedPart> uploaded;
        try {
            uploaded = client.listParts(target, uploadId);
        } catch (FileNotFoundException gone) {
            throw new IOException(
                    "Cannot resume writing " + target + ": multipart upload " + uploadId
                            + " no longer exists (completed, aborted or expired)",
                    gone);
        }
        return UploadedParts.match("resume writing", target, uploadId, recorded, uploaded, recorder);
    }
}
