package dev.flinks3.writer;

import dev.flinks3.transfer.CompletedPart;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.flink.core.fs.RecoverableWriter;

/**
 * A resumable or committable that another S3 plugin's writer persisted ({@link ForeignWriter}): the target's
 * key in the filesystem's bucket, the multipart upload id, the parts by number and ETag (their sizes in
 * bytes are not recorded: {@link CompletedPart#sizeBytes()} is -1, and the writer learns them from ListParts),
 * the bytes in those parts, and the incomplete-part object holding the bytes after them ({@code null} if
 * none) with its length. It keeps the bytes the other plugin wrote, so it is serialized again exactly as
 * read. Both plugins use one form for resuming and for committing. Immutable.
 */
public final class ForeignRecoverable
        implements RecoverableWriter.ResumeRecoverable, RecoverableWriter.CommitRecoverable {

    private final ForeignWriter writer;
    private final int version;
    private final byte[] serialized;
    private final String key;
    private final String uploadId;
    private final List<CompletedPart> parts;
    private final long bytesInParts;
    private final String incompleteKey;
    private final long incompleteBytes;

    ForeignRecoverable(
            ForeignWriter writer,
            int version,
            byte[] serialized,
            String key,
            String uploadId,
            List<CompletedPart> parts,
            long bytesInParts,
            String incompleteKey,
            long incompleteBytes) {
        this.writer = Objects.requireNonNull(writer, "writer");
        this.version = version;
        this.serialized = serialized.clone();
        this.key = Objects.requireNonNull(key, "key");
        this.uploadId = uploadId;
        this.parts = List.copyOf(parts);
        this.bytesInParts = bytesInParts;
        this.incompleteKey = incompleteKey;
        this.incompleteBytes = incompleteKey == null ? 0 : incompleteBytes;
    }

    /** The plugin that wrote it. */
    public ForeignWriter writer() {
        return writer;
    }

    /** The version of that plugin's serializer. */
    int version() {
        return version;
    }

    /** The bytes as that plugin's serializer wrote them. */
    byte[] serialized() {
        return serialized.clone();
    }

    /** The target's key in the filesystem's bucket. */
    public String key() {
        return key;
    }

    /** The multipart upload id, or {@code null}. */
    public String uploadId() {
        return uploadId;
    }

    /** The parts by number and ETag, in the recorded order; sizes unknown (-1). */
    public List<CompletedPart> parts() {
        return parts;
    }

    /** Bytes in the parts. */
    public long bytesInParts() {
        return bytesInParts;
    }

    /** The key of the incomplete-part object, or {@code null}. */
    public String incompleteKey() {
        return incompleteKey;
    }

    /** Bytes in the incomplete-part object (0 if there is none). */
    public long incompleteBytes() {
        return incompleteBytes;
    }

    /** The length in bytes of what was written: the parts plus the incomplete part. */
    public long length() {
        return bytesInParts + incompleteBytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ForeignRecoverable
                && writer == ((ForeignRecoverable) o).writer
                && version == ((ForeignRecoverable) o).version
                && Arrays.equals(serialized, ((ForeignRecoverable) o).serialized);
    }

    @Override
    public int hashCode() {
        return 31 * writer.hashCode() + Arrays.hashCode(serialized);
    }

    @Override
    public String toString() {
        return "ForeignRecoverable{" + writer.plugin() + ", key=" + key + ", uploadId=" + uploadId + ", parts="
                + parts.size() + ", " + bytesInParts + " bytes in parts, incomplete part of " + incompleteBytes
                + " bytes}";
    }
}
