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
 * parts:        int count, then per part: int part number, UTF ETag, long size in bytes,
 *               and from version 2 on an optional UTF: the part's base64 CRC32C
 * </pre>
 *
 * <p>Version 2 keeps each part's CRC32C because S3 refuses to complete an upload created with a checksum
 * algorithm unless the complete request lists every part's checksum; version 1 recoverables carry none.
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

    /** Writes the parts in the current (version 2) form, checksums included. */
    static void writeParts(DataOutputStream out, List<CompletedPart> parts) throws IOException {
        out.writeInt(parts.size());
        for (CompletedPart part : parts) {
            out.writeInt(part.partNumber());
            out.writeUTF(part.eTag());
            out.writeLong(part.sizeBytes());
            writeOptional(out, part.checksumCrc32c());
        }
    }

    /**
     * Reads parts written by serializer version {@code version} (1 or 2).
     *
     * @throws IOException for corrupt bytes
     */
    static List<CompletedPart> readParts(DataInputStream in, int version) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > CompletedPart.MAX_PART_NUMBER) {
            throw new IOException("corrupt recoverable: " + count + " parts");
        }
        List<CompletedPart> parts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int number = in.readInt();
            String eTag = in.readUTF();
            long size = in.readLong();
            String checksum = version >= 2 ? readOptional(in) : null;
            try {
                parts.add(new CompletedPart(number, eTag, size, checksum));
            } catch (IllegalArgumentException e) {
                throw new IOException("corrupt recoverable: " + e.getMessage(), e);
            }
        }
        return parts;
    }
}
