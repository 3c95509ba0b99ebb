package dev.flinks3.writer;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadChecksum;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Serializer of {@link S3ResumeRecoverable}, and reader of the other plugins' resumables ({@link
 * ForeignRecoverable}, told apart by content: {@link RecoverableFormat}). Version 1: location, UTF stream
 * id, optional upload id, parts, optional tail key, long tail bytes, long length (see {@link
 * RecoverableFields}). Version 2 adds each part's CRC32C. Version 3 (written now) opens with the magic
 * number and kind byte, adds the upload's checksum (one byte, after the upload id) and, last, the optional
 * key of the other plugin's incomplete-part object the stream was recovered from. Every version ever
 * written stays readable. Stateless.
 */
public final class S3ResumeRecoverableSerializer
        implements SimpleVersionedSerializer<RecoverableWriter.ResumeRecoverable> {

    /** The shared instance. */
    public static final S3ResumeRecoverableSerializer INSTANCE = new S3ResumeRecoverableSerializer();

    private S3ResumeRecoverableSerializer() {}

    @Override
    public int getVersion() {
        return RecoverableFormat.CURRENT;
    }

    @Override
    public byte[] serialize(RecoverableWriter.ResumeRecoverable obj) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (obj instanceof ForeignRecoverable) {
                RecoverableFormat.writeForeign(out, (ForeignRecoverable) obj);
                return bytes.toByteArray();
            }
            S3ResumeRecoverable recoverable = S3RecoverableWriter.cast(obj, S3ResumeRecoverable.class);
            RecoverableFormat.writeHeader(out, RecoverableFormat.OWN);
            RecoverableFields.writeLocation(out, recoverable.target());
            out.writeUTF(recoverable.streamId());
            RecoverableFields.writeOptional(out, recoverable.uploadId());
            RecoverableFields.writeChecksum(out, recoverable.checksum());
            RecoverableFields.writeParts(out, recoverable.parts());
            RecoverableFields.writeOptional(out, recoverable.tailKey());
            out.writeLong(recoverable.tailBytes());
            out.writeLong(recoverable.length());
            RecoverableFields.writeOptional(out, recoverable.foreignTailKey());
        }
        return bytes.toByteArray();
    }

    /**
     * @return an {@link S3ResumeRecoverable}, or a {@link ForeignRecoverable} for another plugin's resumable
     * @throws IOException for bytes of no form this build reads (naming the writer where it is known and what
     *     to do), or corrupt bytes
     */
    @Override
    public RecoverableWriter.ResumeRecoverable deserialize(int version, byte[] serialized) throws IOException {
        return (RecoverableWriter.ResumeRecoverable)
                RecoverableFormat.read("resume recoverable", version, serialized, S3ResumeRecoverableSerializer::read);
    }

    private static S3ResumeRecoverable read(DataInputStream in, int version) throws IOException {
        S3Location target = RecoverableFields.readLocation(in);
        String streamId = in.readUTF();
        String uploadId = RecoverableFields.readOptional(in);
        UploadChecksum checksum = version >= RecoverableFormat.VERSION_3
                ? RecoverableFields.readChecksum(in)
                : UploadChecksum.AS_CONFIGURED;
        List<CompletedPart> parts = RecoverableFields.readParts(in, version);
        if (version == RecoverableFormat.VERSION_2) {
            // Version 2 recorded what the server confirmed of each part, which shows what the upload carries.
            checksum = RecoverableFields.checksumOfParts(parts);
        }
        String tailKey = RecoverableFields.readOptional(in);
        long tailBytes = in.readLong();
        long length = in.readLong();
        String foreignTailKey = version >= RecoverableFormat.VERSION_3 ? RecoverableFields.readOptional(in) : null;
        try {
            return new S3ResumeRecoverable(
                    target, streamId, uploadId, checksum, parts, tailKey, tailBytes, length, foreignTailKey);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt S3 resume recoverable: " + e.getMessage(), e);
        }
    }
}
