package dev.flinks3.multipart;

import dev.flinks3.transfer.CompletedPart;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The durable state of an upload stream at one moment, as {@link MultipartUploadStream#persist()} and
 * {@link MultipartUploadStream#closeForCommit()} return it: the upload id ({@code null} if no part was
 * ever uploaded), the uploaded parts in part-number order, the bytes written after the last part (the
 * tail, smaller than S3's 5 MiB part minimum; empty after {@code closeForCommit}) and the stream's
 * position in bytes, which equals the parts' sizes plus the tail's.
 *
 * <p>The tail is a view of the stream's buffer, valid only until the stream is next written to, closed
 * or cancelled: store it (as a tail object) before that. Immutable otherwise.
 */
public final class UploadSnapshot {

    private final String uploadId;
    private final List<CompletedPart> parts;
    private final ByteBuffer tail;
    private final long position;

    UploadSnapshot(String uploadId, List<CompletedPart> parts, ByteBuffer tail, long position) {
        this.uploadId = uploadId;
        this.parts = List.copyOf(parts);
        this.tail = tail.asReadOnlyBuffer();
        this.position = position;
    }

    /** The multipart upload id, or {@code null} if none was created (everything is in the tail). */
    public String uploadId() {
        return uploadId;
    }

    /** The parts uploaded so far, in part-number order. */
    public List<CompletedPart> parts() {
        return parts;
    }

    /** The bytes after the last part, positioned at 0; a fresh read-only view on each call. */
    public ByteBuffer tail() {
        return tail.duplicate();
    }

    /** Bytes in the tail. */
    public int tailBytes() {
        return tail.remaining();
    }

    /** Total bytes written to the stream, in bytes: the parts' sizes plus the tail. */
    public long position() {
        return position;
    }

    @Override
    public String toString() {
        return "UploadSnapshot{uploadId=" + uploadId + ", parts=" + parts.size() + ", tail=" + tailBytes()
                + " bytes, position=" + position + "}";
    }
}
