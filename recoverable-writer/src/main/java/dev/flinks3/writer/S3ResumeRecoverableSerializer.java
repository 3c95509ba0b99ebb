package dev.flinks3.writer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Serializer of {@link S3ResumeRecoverable}. Version 1: location, UTF stream id, optional upload id,
 * parts, optional tail key, long tail bytes, long length (see {@link RecoverableFields}). Version 2
 * (written now) adds each part's CRC32C. Every
 * version ever written stays readable. Stateless.
 */
public final class S3ResumeRecoverableSerializer
        implements SimpleVersionedSerializer<RecoverableWriter.ResumeRecoverable> {

    /** The shared instance. */
    public static final S3ResumeRecoverableSerializer INSTANCE = new S3ResumeRecoverableSerializer();

    private static final int VERSION_1 = 1;
    private static final int VERSION_2 = 2;

    private S3ResumeRecoverableSerializer() {}

    @Override
    public int getVersion() {
        return VERSION_2;
    }

    @Override
    public byte[] serialize(RecoverableWriter.ResumeRecoverable obj) throws IOException {
        S3ResumeRecoverable recoverable = S3RecoverableWriter.cast(obj, S3ResumeRecoverable.class);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            RecoverableFields.writeLocation(out, recoverable.target());
            out.writeUTF(recoverable.streamId());
            RecoverableFields.writeOptional(out, recoverable.uploadId());
            RecoverableFields.writeParts(out, recoverable.parts());
            RecoverableFields.writeOptional(out, recoverable.tailKey());
            out.writeLong(recoverable.tailBytes());
            out.writeLong(recoverable.length());
        }
        return bytes.toByteArray();
    }

    /** @throws IOException for an unknown version or corrupt bytes */
    @Override
    public RecoverableWriter.ResumeRecoverable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException("Unknown version " + version + " of an S3 resume recoverable; this build reads "
                    + VERSION_1 + " and " + VERSION_2);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            try {
                return new S3ResumeRecoverable(
                        RecoverableFields.readLocation(in),
                        in.readUTF(),
                        RecoverableFields.readOptional(in),
                        RecoverableFields.readParts(in, version),
                        RecoverableFields.readOptional(in),
                        in.readLong(),
                        in.readLong());
            } catch (IllegalArgumentException e) {
                throw new IOException("corrupt S3 resume recoverable: " + e.getMessage(), e);
            }
        }
    }
}
