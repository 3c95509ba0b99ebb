package dev.flinks3.writer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Serializer of {@link S3CommitRecoverable}. Version 1: location, optional upload id, parts, long
 * length (see {@link RecoverableFields}). Version 2 (written now) adds each part's CRC32C. Every version
 * ever written stays readable. Stateless.
 */
public final class S3CommitRecoverableSerializer
        implements SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> {

    /** The shared instance. */
    public static final S3CommitRecoverableSerializer INSTANCE = new S3CommitRecoverableSerializer();

    private static final int VERSION_1 = 1;
    private static final int VERSION_2 = 2;

    private S3CommitRecoverableSerializer() {}

    @Override
    public int getVersion() {
        return VERSION_2;
    }

    @Override
    public byte[] serialize(RecoverableWriter.CommitRecoverable obj) throws IOException {
        S3CommitRecoverable recoverable = S3RecoverableWriter.cast(obj, S3CommitRecoverable.class);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            RecoverableFields.writeLocation(out, recoverable.target());
            RecoverableFields.writeOptional(out, recoverable.uploadId());
            RecoverableFields.writeParts(out, recoverable.parts());
            out.writeLong(recoverable.length());
        }
        return bytes.toByteArray();
    }

    /** @throws IOException for an unknown version or corrupt bytes */
    @Override
    public RecoverableWriter.CommitRecoverable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException("Unknown version " + version + " of an S3 commit recoverable; this build reads "
                    + VERSION_1 + " and " + VERSION_2);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            try {
                return new S3CommitRecoverable(
                        RecoverableFields.readLocation(in),
                        RecoverableFields.readOptional(in),
                        RecoverableFields.readParts(in, version),
                        in.readLong());
            } catch (IllegalArgumentException e) {
                throw new IOException("corrupt S3 commit recoverable: " + e.getMessage(), e);
            }
        }
    }
}
