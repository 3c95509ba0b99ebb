package dev.flinks3.writer;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadChecksum;
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
 * Version 3 keeps the parts as version 2 does, and the upload's checksum as one byte ({@link
 * #writeChecksum}).
 *
 * Changing any of this needs a new serializer version; old versions must stay readable.
 */
final class RecoverableFields {

    /** The schemes this plugin serves, the only ones its recoverables can name. */
    private static final List<String> SCHEMES = List.of("s3", "s3a", "s3p");

    private static final List<UploadChecksum> CHECKSUMS =
            List.of(UploadChecksum.AS_CONFIGURED, UploadChecksum.NONE, UploadChecksum.CRC32C);

    private RecoverableFields() {}

    /** The upload's checksum as one byte: 0 not recorded, 1 none, 2 CRC32C. */
    static void writeChecksum(DataOutputStream out, UploadChecksum checksum) throws IOException {
        out.writeByte(CHECKSUMS.indexOf(checksum));
    }

    static UploadChecksum readChecksum(DataInputStream in) throws IOException {
        int code = in.readUnsignedByte();
        if (code >= CHECKSUMS.size()) {
            throw new IOException("corrupt recoverable: checksum " + code);
        }
        return CHECKSUMS.get(code);
    }

    /**
     * The checksum an upload's parts show they were sent with: CRC32C if the server confirmed a part's CRC32C,
     * none if it confirmed none, {@link UploadChecksum#AS_CONFIGURED} (unknown) if there are no parts.
     */
    static UploadChecksum checksumOfParts(List<CompletedPart> parts) {
        if (parts.isEmpty()) {
            return UploadChecksum.AS_CONFIGURED;
        }
        for (CompletedPart part : parts) {
            if (part.checksumCrc32c() != null) {
                return UploadChecksum.CRC32C;
            }
        }
        return UploadChecksum.NONE;
    }

    static void writeLocation(DataOutputStream out, S3Location location) throws IOException {
        out.writeUTF(location.scheme());
        out.writeUTF(location.bucket());
        out.writeUTF(location.key());
    }

    static S3Location readLocation(DataInputStream in) throws IOException {
        String scheme = in.readUTF();
        if (!SCHEMES.contains(scheme)) {
            throw new IOException("corrupt recoverable: scheme '" + scheme + "' is none of " + SCHEMES);
        }
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

    /** Writes the parts in the current form (that of versions 2 and 3), checksums included. */
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
     * Reads parts written by serializer version {@code version} (1, 2 or 3).
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
