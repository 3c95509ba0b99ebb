package dev.flinks3.writer;

import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;

/**
 * Commits another plugin's pending file ({@link ForeignRecoverable}) as this plugin commits its own ({@link
 * S3Committer}), with the same verified commit after recovery. Those plugins record each part's number and
 * ETag but not its size or checksum, which a completion of an upload created with a checksum must list: the
 * committer first lists the upload's parts (one ListParts) and completes with what the upload holds. Where
 * the upload is gone, an earlier attempt completed it: the object at the key is accepted only with exactly the
 * recorded length and, where ETags allow, the ETag the recorded parts give. A state of no bytes (no part)
 * becomes a zero-byte object, as this plugin's own do, and its empty upload is aborted.
 */
final class ForeignCommitter implements RecoverableFsDataOutputStream.Committer {

    private final ObjectClient client;
    private final UploadEngine engine;
    private final TailStore tails;
    private final ForeignRecoverable recoverable;
    private final S3Location target;

    ForeignCommitter(
            ObjectClient client,
            UploadEngine engine,
            TailStore tails,
            ForeignRecoverable recoverable,
            S3Location target) {
        this.client = client;
        this.engine = engine;
        this.tails = tails;
        this.recoverable = recoverable;
        this.target = target;
    }

    /**
     * Lists the upload's parts, completes the upload with them and deletes the incomplete-part object, if any.
     *
     * @throws IOException if the upload is gone or lacks a recorded part, or S3 refuses the completion
     */
    @Override
    public void commit() throws IOException {
        committer(true).commit();
    }

    /**
     * As {@link #commit()}, or accepts the object an earlier attempt completed (see {@link
     * S3Committer#commitAfterRecovery()}).
     *
     * @throws IOException naming the key and both lengths if the object there is not the recorded one, or the
     *     completion's failure if no object exists
     */
    @Override
    public void commitAfterRecovery() throws IOException {
        committer(false).commitAfterRecovery();
    }

    /** The other plugin's state, serialized again as it was read. */
    @Override
    public RecoverableWriter.CommitRecoverable getRecoverable() {
        return recoverable;
    }

    /**
     * The committer of this state in this plugin's terms.
     *
     * @param uploadMustExist true to fail if the upload is gone; false to let the commit after recovery check
     *     the object instead
     */
    private S3Committer committer(boolean uploadMustExist) throws IOException {
        if (recoverable.parts().isEmpty() && recoverable.bytesInParts() == 0) {
            if (recoverable.uploadId() != null) {
                Futures.quietly(client.abortMultipartUpload(target, recoverable.uploadId()));
            }
            return new S3Committer(
                    client,
                    engine,
                    tails,
                    new S3CommitRecoverable(target, null, List.of(), 0, recoverable.incompleteKey()));
        }
        List<CompletedPart> parts = recoverable.parts();
        try {
            parts = UploadedParts.match(
                    "commit",
                    target,
                    recoverable.uploadId(),
                    parts,
                    client.listParts(target, recoverable.uploadId()),
                    recoverable.writer().plugin() + "'s committable");
        } catch (FileNotFoundException gone) {
            if (uploadMustExist) {
                throw new IOException(
                        "Cannot commit " + target + ": multipart upload " + recoverable.uploadId() + " of "
                                + recoverable.writer().plugin() + " no longer exists (completed, aborted or expired)",
                        gone);
            }
        }
        return new S3Committer(
                client,
                engine,
                tails,
                new S3CommitRecoverable(
                        target,
                        recoverable.uploadId(),
                        parts,
                        recoverable.bytesInParts(),
                        recoverable.incompleteKey()));
    }
}
