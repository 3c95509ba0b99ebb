package dev.flinks3.writer;

import dev.flinks3.multipart.MultipartUploadStream;
import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.multipart.UploadSnapshot;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadChecksum;
import java.io.IOException;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;

/**
 * A recoverable stream over one multipart upload: parts upload in the background as in the plain write
 * path (same per-stream and per-process bounds); {@link #persist()} waits for them and stores the
 * rest as a tail object, recording the checksum the upload's parts carry; {@link #closeForCommit()}
 * uploads the last part; {@link #close()} gives up without committing and aborts the upload only if no
 * persist handed it out. One writer thread.
 */
final class S3RecoverableFsDataOutputStream extends RecoverableFsDataOutputStream {

    private final ObjectClient client;
    private final UploadEngine engine;
    private final TailStore tails;
    private final MultipartUploadStream out;
    private final String streamId;
    /** The checksum of a continued upload's parts; {@link UploadChecksum#AS_CONFIGURED} for a new stream. */
    private final UploadChecksum checksum;
    /** Another plugin's incomplete-part object this stream was recovered from, deleted at the commit; or null. */
    private final String foreignTailKey;

    /** A new stream. */
    S3RecoverableFsDataOutputStream(
            ObjectClient client, UploadEngine engine, TailStore tails, MultipartUploadStream out, String streamId) {
        this(client, engine, tails, out, streamId, UploadChecksum.AS_CONFIGURED, null);
    }

    /**
     * A stream continued from persisted state.
     *
     * @param checksum what the continued upload's parts carry
     * @param foreignTailKey another plugin's incomplete-part object the stream was recovered from, or null
     */
    S3RecoverableFsDataOutputStream(
            ObjectClient client,
            UploadEngine engine,
            TailStore tails,
            MultipartUploadStream out,
            String streamId,
            UploadChecksum checksum,
            String foreignTailKey) {
        this.client = client;
        this.engine = engine;
        this.tails = tails;
        this.out = out;
        this.streamId = streamId;
        this.checksum = checksum;
        this.foreignTailKey = foreignTailKey;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    /** Bytes written, counting those recovered. */
    @Override
    public long getPos() {
        return out.getPos();
    }

    /** Does nothing: {@link #persist()} is what makes bytes durable on S3. */
    @Override
    public void flush() {}

    /** Does nothing: {@link #persist()} is what makes bytes durable on S3. */
    @Override
    public void sync() {}

    /**
     * Uploads every full part (and a current buffer of at least 5 MiB), waits for them, and stores the
     * remaining bytes as a tail object beside the target. Blocks until S3 answered.
     */
    @Override
    public RecoverableWriter.ResumeRecoverable persist() throws IOException {
        UploadSnapshot state = out.persist();
        S3Location target = out.target();
        String tailKey = null;
        if (state.tailBytes() > 0) {
            tailKey = tails.write(target, streamId, state.position(), state.tail())
                    .key();
        }
        UploadChecksum recorded = checksum == UploadChecksum.AS_CONFIGURED && state.uploadId() != null
                ? RecoverableFields.checksumOfParts(state.parts())
                : checksum;
        return new S3ResumeRecoverable(
                target,
                streamId,
                state.uploadId(),
                recorded,
                state.parts(),
                tailKey,
                state.tailBytes(),
                state.position(),
                foreignTailKey);
    }

    /** Uploads the remaining bytes as the last part and returns the committer; the stream is closed. */
    @Override
    public Committer closeForCommit() throws IOException {
        UploadSnapshot state = out.closeForCommit();
        return new S3Committer(
                client,
                engine,
                tails,
                new S3CommitRecoverable(
                        out.target(), state.uploadId(), state.parts(), state.position(), foreignTailKey));
    }

    /** Releases the buffers without committing; see {@link MultipartUploadStream#cancel()}. */
    @Override
    public void close() {
        out.cancel();
    }
}
