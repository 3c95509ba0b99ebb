package dev.flinks3.writer;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.S3Location;
import java.util.List;
import java.util.Objects;
import org.apache.flink.core.fs.RecoverableWriter;

/**
 * What a committer needs after {@code closeForCommit()}: the target, the multipart upload id and its
 * parts (ETags and sizes, in part-number order), the object's length in bytes, and, for a stream recovered
 * from another plugin's state, that plugin's incomplete-part object to delete once the target is committed
 * ({@code null} otherwise). A stream that received no bytes has no upload id and no parts; its commit
 * writes a zero-byte object. Immutable.
 */
public final class S3CommitRecoverable implements RecoverableWriter.CommitRecoverable {

    private final S3Location target;
    private final String uploadId;
    private final List<CompletedPart> parts;
    private final long length;
    private final String foreignTailKey;

    S3CommitRecoverable(S3Location target, String uploadId, List<CompletedPart> parts, long length) {
        this(target, uploadId, parts, length, null);
    }

    S3CommitRecoverable(
            S3Location target, String uploadId, List<CompletedPart> parts, long length, String foreignTailKey) {
        this.target = Objects.requireNonNull(target, "target");
        this.uploadId = uploadId;
        this.parts = List.copyOf(parts);
        this.length = length;
        this.foreignTailKey = foreignTailKey;
        if (uploadId == null && (length != 0 || !parts.isEmpty())) {
            throw new IllegalArgumentException("a commit of " + length + " bytes to " + target + " needs an upload id");
        }
    }

    public S3Location target() {
        return target;
    }

    /** The multipart upload id, {@code null} for a zero-byte object. */
    public String uploadId() {
        return uploadId;
    }

    public List<CompletedPart> parts() {
        return parts;
    }

    /** The committed object's length in bytes. */
    public long length() {
        return length;
    }

    /** The key of another plugin's incomplete-part object to delete after the commit, or {@code null}. */
    String foreignTailKey() {
        return foreignTailKey;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof S3CommitRecoverable)) {
            return false;
        }
        S3CommitRecoverable that = (S3CommitRecoverable) o;
        return length == that.length
                && target.equals(that.target)
                && target.scheme().equals(that.target.scheme())
                && Objects.equals(uploadId, that.uploadId)
                && parts.equals(that.parts)
                && Objects.equals(foreignTailKey, that.foreignTailKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(target, uploadId, parts, length, foreignTailKey);
    }

    @Override
    public String toString() {
        return "S3CommitRecoverable{" + target + ", uploadId=" + uploadId + ", parts=" + parts.size() + ", length="
                + length + "}";
    }
}
