package dev.flinks3.writer;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadChecksum;
import java.util.List;
import java.util.Objects;
import org.apache.flink.core.fs.RecoverableWriter;

/**
 * What a {@code persist()} made durable: the target, the stream's id, the multipart upload id and its
 * parts so far ({@code null} and empty if no part was uploaded yet), the checksum the upload's parts
 * carry ({@link UploadChecksum}; {@link UploadChecksum#AS_CONFIGURED} where unknown, as in states of
 * serializer version 1), the tail object holding the bytes after the last part ({@code null} if there are
 * none) with its length, the total length in bytes (the parts' sizes plus the tail), and, for a stream
 * recovered from another plugin's state, that plugin's incomplete-part object, deleted once the target is
 * committed ({@code null} otherwise). Immutable.
 */
public final class S3ResumeRecoverable implements RecoverableWriter.ResumeRecoverable {

    private final S3Location target;
    private final String streamId;
    private final String uploadId;
    private final UploadChecksum checksum;
    private final List<CompletedPart> parts;
    private final String tailKey;
    private final long tailBytes;
    private final long length;
    private final String foreignTailKey;

    S3ResumeRecoverable(
            S3Location target,
            String streamId,
            String uploadId,
            List<CompletedPart> parts,
            String tailKey,
            long tailBytes,
            long length) {
        this(target, streamId, uploadId, UploadChecksum.AS_CONFIGURED, parts, tailKey, tailBytes, length, null);
    }

    S3ResumeRecoverable(
            S3Location target,
            String streamId,
            String uploadId,
            UploadChecksum checksum,
            List<CompletedPart> parts,
            String tailKey,
            long tailBytes,
            long length,
            String foreignTailKey) {
        this.target = Objects.requireNonNull(target, "target");
        this.streamId = Objects.requireNonNull(streamId, "streamId");
        this.uploadId = uploadId;
        this.checksum = Objects.requireNonNull(checksum, "checksum");
        this.parts = List.copyOf(parts);
        this.tailKey = tailKey;
        this.tailBytes = tailBytes;
        this.length = length;
        this.foreignTailKey = foreignTailKey;
        long partBytes = 0;
        for (CompletedPart part : parts) {
            partBytes += part.sizeBytes();
        }
        if (partBytes + tailBytes != length || (tailKey == null) != (tailBytes == 0)) {
            throw new IllegalArgumentException("inconsistent recoverable for " + target + ": parts of " + partBytes
                    + " bytes, tail " + tailKey + " of " + tailBytes + " bytes, length " + length);
        }
    }

    public S3Location target() {
        return target;
    }

    /** The id of the stream that persisted this state; its tail objects share it. */
    public String streamId() {
        return streamId;
    }

    /** The multipart upload id, or {@code null} if all bytes are in the tail. */
    public String uploadId() {
        return uploadId;
    }

    /** The checksum the upload's parts carry; {@link UploadChecksum#AS_CONFIGURED} where it was not recorded. */
    public UploadChecksum checksum() {
        return checksum;
    }

    public List<CompletedPart> parts() {
        return parts;
    }

    /** The tail object's location, or {@code null} if there is no tail. */
    public S3Location tail() {
        return tailKey == null ? null : target.withKey(tailKey);
    }

    /** Bytes in the tail object. */
    public long tailBytes() {
        return tailBytes;
    }

    /** Bytes written when this state was persisted. */
    public long length() {
        return length;
    }

    String tailKey() {
        return tailKey;
    }

    /** The key of another plugin's incomplete-part object this stream was recovered from, or {@code null}. */
    String foreignTailKey() {
        return foreignTailKey;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof S3ResumeRecoverable)) {
            return false;
        }
        S3ResumeRecoverable that = (S3ResumeRecoverable) o;
        return tailBytes == that.tailBytes
                && length == that.length
                && target.equals(that.target)
                && target.scheme().equals(that.target.scheme())
                && streamId.equals(that.streamId)
                && Objects.equals(uploadId, that.uploadId)
                && checksum == that.checksum
                && parts.equals(that.parts)
                && Objects.equals(tailKey, that.tailKey)
                && Objects.equals(foreignTailKey, that.foreignTailKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(target, streamId, uploadId, checksum, parts, tailKey, tailBytes, length, foreignTailKey);
    }

    @Override
    public String toString() {
        return "S3ResumeRecoverable{" + target + ", uploadId=" + uploadId + ", checksum=" + checksum + ", parts="
                + parts.size() + ", tail=" + tailBytes + " bytes, length=" + length + "}";
    }
}
