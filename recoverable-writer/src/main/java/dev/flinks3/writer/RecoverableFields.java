package dev.flinks3.writer;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.S3Location;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields both recoverables share, in their serialized form (big-endian, strings as modified UTF-8
 * of {@link DataOutputStream#writeUTF}):
 *
 * <pre>
 * location:     scheme UTF, bucket UTF, key UTF
 * optional UTF: boolean present, then UTF if present
 * parts:        int count, then per part: int part number, UTF ETag, long size in bytes
 * </pre>
 *
 * Changing any of this needs a new serializer version; old versions must stay readable.
 */
final class RecoverableFields {

    private RecoverableFields() {}

    static void writeLocation(DataOutputStream out, S3Location location) throws IOException {
        out.writeUTF(location.scheme());
        out.writeUTF(location.bucket());
        out.writeUTF(location.key());
    }

    static S3Location readLocation(DataInputStream in) throws IOException {
        String scheme = in.readUTF();
        String bucket = in.readUTF();
        String key = in.readUTF();
        try {
            return S3Location.of(scheme, bucket, key);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt recoverable: " + e.getMessage(), e);
        }
    }

    static void writeOptional(DataOutputStream out, String value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(value);
        }
    }

    static String readOptional(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }

    static void writeParts(DataOutputStream out, List<CompletedPart> parts) throws IOException {
        out.writeInt(parts.size());
        for (CompletedPart part : parts) {
            out.writeInt(part.partNumber());
            out.writeUTF(part.eTag());
            out.writeLong(part.sizeBytes());
        }
    }

    static List<CompletedPart> readParts(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > CompletedPart.MAX_PART_NUMBER) {
            throw new IOException("corrupt recoverable: " + count + " parts");
        }
        List<CompletedPart> parts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int number = in.readInt();
            String eTag = in.readUTF();
            long size = in.readLong();
            try {
                parts.add(new CompletedPart(number, eTag, size));
            } catch (IllegalArgumentException e) {
                throw new IOException("corrupt recoverable: " + e.getMessage(), e);
            }
        }
        return parts;
    }
}
