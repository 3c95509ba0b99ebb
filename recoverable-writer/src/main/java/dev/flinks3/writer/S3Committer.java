package dev.flinks3.writer;

import dev.flinks3.multipart.ETags;
import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a closed stream's object: CompleteMultipartUpload of the recorded parts (a zero-byte
 * object is written with one PutObject).
 *
 * <p>{@link #commitAfterRecovery()} is idempotent, as Flink's contract requires. It first checks with one
 * HEAD whether the object at the key already has the recorded length and the ETag the recorded parts
 * give; then it sends no completion at all. Otherwise, if the upload is gone
 * because an earlier attempt completed it, the object at the key is accepted only if it has exactly
 * the recorded length and, where the server's ETags allow the comparison, the ETag the recorded parts
 * give. Anything else is an error naming the key and both lengths (compare Flink's
 * {@code S3Committer}).
 *
 * <p>Once the object is in place, both delete every tail object left beside the target ({@link
 * TailStore#deleteAllTails}): one LIST, plus one DeleteObjects if any are left; a stream recovered from
 * another plugin's state also deletes that plugin's incomplete-part object (before the completion where that
 * object lies below the target's key, see {@link #deleteForeignTailBelowTarget}). A failure of that
 * clean-up is logged by the tail store, not thrown: the commit itself took effect. Retries only as the
 * object client does.
 */
final class S3Committer implements RecoverableFsDataOutputStream.Committer {

    private static final Logger LOG = LoggerFactory.getLogger(S3Committer.class);

    private final ObjectClient client;
    private final UploadEngine engine;
    private final TailStore tails;
    private final S3CommitRecoverable recoverable;
    /** True once another plugin's incomplete-part object below the target's key was deleted before completing. */
    private boolean foreignTailDeleted;

    S3Committer(ObjectClient client, UploadEngine engine, TailStore tails, S3CommitRecoverable recoverable) {
        this.client = client;
        this.engine = engine;
        this.tails = tails;
        this.recoverable = recoverable;
    }

    /**
     * Completes the upload, then deletes the target's tail objects.
     *
     * @throws IOException if S3 refuses, e.g. {@link dev.flinks3.transfer.S3RequestException} NoSuchUpload
     */
    @Override
    public void commit() throws IOException {
        complete();
        discardTails();
    }

    /**
     * Completes the upload, or accepts the object an earlier attempt already completed.
     *
     * @throws IOException naming the key and both lengths if the object there is not the recorded one,
     *     or the completion's failure if no object exists
     */
    @Override
    public void commitAfterRecovery() throws IOException {
        if (alreadyCommitted()) {
            discardTails();
            return;
        }
        try {
            complete();
        } catch (IOException failure) {
            acceptExistingObject(failure);
        }
        discardTails();
    }

    /**
     * True if the object at the key is already the one the recorded parts give: the recorded length and
     * exactly the multipart ETag of the recorded parts. One HEAD, sent before any completion, so that a
     * restore of many files an earlier attempt committed spends no completions (and none of their
     * retries: Ceph RGW before a 2026 fix answers 500 instead of NoSuchUpload for a gone upload, which
     * the client retries). Where the ETags cannot be compared, false: the completion decides.
     */
    private boolean alreadyCommitted() throws IOException {
        if (recoverable.uploadId() == null) {
            return false;
        }
        String expected = ETags.ofParts(recoverable.parts());
        if (expected == null) {
            return false;
        }
        ObjectMetadata existing;
        try {
            existing = client.head(recoverable.target());
        } catch (FileNotFoundException absent) {
            return false;
        }
        if (existing.length() != recoverable.length() || !ETags.same(expected, existing.eTag())) {
            return false;
        }
        LOG.debug(
                "{} was already committed ({} bytes, ETag {}); accepting it after recovery without a completion",
                recoverable.target(),
                existing.length(),
                existing.eTag());
        return true;
    }

    @Override
    public RecoverableWriter.CommitRecoverable getRecoverable() {
        return recoverable;
    }

    private void complete() throws IOException {
        deleteForeignTailBelowTarget();
        if (recoverable.uploadId() == null) {
            Futures.await(
                    client.put(recoverable.target(), ByteBuffer.allocate(0), WriteCondition.NONE),
                    "PutObject",
                    recoverable.target());
            return;
        }
        engine.completeUpload(recoverable.target(), recoverable.uploadId(), recoverable.parts(), WriteCondition.NONE);
    }

    /**
     * Deletes another plugin's incomplete-part object before the completion where it lies below the target's key
     * (flink-s3-fs-native keeps it as {@code <key>/.incomplete/<upload id>/<uuid>}): a store that keeps objects as
     * files (MinIO, S3Proxy's filesystem backend) cannot create the target while a key below it exists. Its bytes
     * are already in the upload's parts, uploaded when this stream closed for the commit.
     */
    private void deleteForeignTailBelowTarget() {
        String foreign = recoverable.foreignTailKey();
        if (foreign != null && foreign.startsWith(recoverable.target().key() + "/")) {
            foreignTailDeleted = tails.delete(recoverable.target().withKey(foreign));
        }
    }

    private void discardTails() {
        tails.deleteAllTails(recoverable.target());
        // Not again once deleted: such a store answers a DELETE below an object's key with an error, retried.
        if (recoverable.foreignTailKey() != null && !foreignTailDeleted) {
            tails.delete(recoverable.target().withKey(recoverable.foreignTailKey()));
        }
    }

    private void acceptExistingObject(IOException failure) throws IOException {
        ObjectMetadata existing;
        try {
            existing = client.head(recoverable.target());
        } catch (FileNotFoundException absent) {
            failure.addSuppressed(absent);
            throw failure;
        }
        if (existing.length() != recoverable.length()) {
            IOException mismatch = new IOException("Cannot commit " + recoverable.target() + ": the upload is gone and"
                    + " the object at the key has " + existing.length() + " bytes, but the recoverable recorded "
                    + recoverable.length() + " bytes");
            mismatch.addSuppressed(failure);
            throw mismatch;
        }
        String expected = ETags.ofParts(recoverable.parts());
        if (expected != null
                && isMultipartETagOf(existing.eTag(), recoverable.parts().size())
                && !ETags.same(expected, existing.eTag())) {
            IOException mismatch = new IOException("Cannot commit " + recoverable.target() + ": the object at the key"
                    + " has the recorded length of " + existing.length() + " bytes but ETag " + existing.eTag()
                    + " where the recorded parts give " + expected);
            mismatch.addSuppressed(failure);
            throw mismatch;
        }
        LOG.debug(
                "{} was already committed ({} bytes); accepting it after recovery",
                recoverable.target(),
                existing.length());
    }

    /** True if {@code eTag} has the AWS multipart form {@code "<hex>-<parts>"} for this many parts. */
    private static boolean isMultipartETagOf(String eTag, int parts) {
        if (eTag == null) {
            return false;
        }
        String unquoted = eTag.replace("\"", "");
        return unquoted.endsWith("-" + parts);
    }
}
