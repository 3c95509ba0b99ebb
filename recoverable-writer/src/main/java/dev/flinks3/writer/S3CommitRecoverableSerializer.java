package dev.flinks3.writer;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Serializer of {@link S3CommitRecoverable}, and reader of the other plugins' committables ({@link
 * ForeignRecoverable}, told apart by content: {@link RecoverableFormat}). Version 1: location, optional
 * upload id, parts, long length (see {@link RecoverableFields}). Version 2 adds each part's CRC32C. Version
 * 3 (written now) opens with the magic number and kind byte and adds, last, the optional key of the other
 * plugin's incomplete-part object the stream was recovered from. Every version ever written stays
 * readable. Stateless.
 */
public final class S3CommitRecoverableSerializer
        implements SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> {

    /** The shared instance. */
    public static final S3CommitRecoverableSerializer INSTANCE = new S3CommitRecoverableSerializer();

    private S3CommitRecoverableSerializer() {}

    @Override
    public int getVersion() {
        return RecoverableFormat.CURRENT;
    }

    @Override
    public byte[] serialize(RecoverableWriter.CommitRecoverable obj) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (obj instanceof ForeignRecoverable) {
                RecoverableFormat.writeForeign(out, (ForeignRecoverable) obj);
                return bytes.toByteArray();
            }
            S3CommitRecoverable recoverable = S3RecoverableWriter.cast(obj, S3CommitRecoverable.class);
            RecoverableFormat.writeHeader(out, RecoverableFormat.OWN);
            RecoverableFields.writeLocation(out, recoverable.target());
            RecoverableFields.writeOptional(out, recoverable.uploadId());
            RecoverableFields.writeParts(out, recoverable.parts());
            out.writeLong(recoverable.length());
            RecoverableFields.writeOptional(out, recoverable.foreignTailKey());
        }
        return bytes.toByteArray();
    }

    /**
     * @return an {@link S3CommitRecoverable}, or a {@link ForeignRecoverable} for another plugin's committable
     * @throws IOException for bytes of no form this build reads (naming the writer where it is known and what
     *     to do), or corrupt bytes
     */
    @Override
    public RecoverableWriter.CommitRecoverable deserialize(int version, byte[] serialized) throws IOException {
        return (RecoverableWriter.CommitRecoverable)
                RecoverableFormat.read("commit recoverable", version, serialized, S3CommitRecoverableSerializer::read);
    }

    private static S3CommitRecoverable read(DataInputStream in, int version) throws IOException {
        try {
            return new S3CommitRecoverable(
                    RecoverableFields.readLocation(in),
                    RecoverableFields.readOptional(in),
                    RecoverableFields.readParts(in, version),
                    in.readLong(),
                    version >= RecoverableFormat.VERSION_3 ? RecoverableFields.readOptional(in) : null);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt S3 commit recoverable: " + e.getMessage(), e);
        }
    }
}
