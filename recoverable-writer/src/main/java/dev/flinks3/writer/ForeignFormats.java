package dev.flinks3.writer;

import dev.flinks3.transfer.CompletedPart;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the serialized forms of the other plugins' writers ({@link ForeignWriter}), strictly: every length
 * must fit, every byte must be used, so that bytes of another form are refused rather than misread. The
 * layouts, as those plugins' serializers write them:
 *
 * <pre>
 * flink-s3-fs-hadoop, version 1 (little-endian; strings UTF-8 with an int length in bytes):
 *   int magic 0x98761432, key, upload id, int part count, per part: int number, ETag,
 *   long bytes in parts, incomplete-part key (length 0: none), long incomplete-part bytes
 * flink-s3-fs-native, version 1 (big-endian; strings as DataOutput.writeUTF):
 *   key, upload id, long bytes in parts, int part count, per part: int number, ETag,
 *   boolean incomplete part present, then its key and long bytes
 * </pre>
 */
final class ForeignFormats {

    /** The first int of flink-s3-fs-hadoop's form, read little-endian. */
    static final int HADOOP_MAGIC = 0x98761432;

    private ForeignFormats() {}

    /** True if {@code bytes} open with flink-s3-fs-hadoop's magic number. */
    static boolean looksLikeHadoop(byte[] bytes) {
        return bytes.length >= 4
                && ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(0) == HADOOP_MAGIC;
    }

    /**
     * Reads {@code bytes} as {@code writer}'s form of {@code version}.
     *
     * @throws IOException describing what does not fit
     */
    static ForeignRecoverable read(ForeignWriter writer, int version, byte[] bytes) throws IOException {
        if (version != 1) {
            throw new IOException(
                    writer.plugin() + "'s " + writer.serializer() + " wrote version 1 only, not " + version);
        }
        return writer == ForeignWriter.FLINK_S3_FS_HADOOP ? readHadoop(bytes) : readNative(bytes);
    }

    private static ForeignRecoverable readHadoop(byte[] bytes) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        try {
            if (in.getInt() != HADOOP_MAGIC) {
                throw new IOException("no magic number 0x98761432");
            }
            String key = utf8(in);
            String uploadId = utf8(in);
            List<CompletedPart> parts = parts(in.getInt());
            for (int i = 0, count = parts.size(); i < count; i++) {
                int number = in.getInt();
                parts.set(i, part(number, utf8(in)));
            }
            long bytesInParts = in.getLong();
            String incompleteKey = utf8(in);
            long incompleteBytes = in.getLong();
            if (in.hasRemaining()) {
                throw new IOException(in.remaining() + " bytes after the last field");
            }
            return recoverable(
                    ForeignWriter.FLINK_S3_FS_HADOOP,
                    bytes,
                    key,
                    uploadId,
                    parts,
                    bytesInParts,
                    incompleteKey.isEmpty() ? null : incompleteKey,
                    incompleteBytes);
        } catch (BufferUnderflowException e) {
            throw new IOException("the bytes end within a field", e);
        }
    }

    private static ForeignRecoverable readNative(byte[] bytes) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            String key = in.readUTF();
            String uploadId = in.readUTF();
            long bytesInParts = in.readLong();
            List<CompletedPart> parts = parts(in.readInt());
            for (int i = 0, count = parts.size(); i < count; i++) {
                int number = in.readInt();
                parts.set(i, part(number, in.readUTF()));
            }
            String incompleteKey = null;
            long incompleteBytes = 0;
            if (in.readBoolean()) {
                incompleteKey = in.readUTF();
                incompleteBytes = in.readLong();
            }
            if (in.available() > 0) {
                throw new IOException(in.available() + " bytes after the last field");
            }
            return recoverable(
                    ForeignWriter.FLINK_S3_FS_NATIVE,
                    bytes,
                    key,
                    uploadId,
                    parts,
                    bytesInParts,
                    incompleteKey,
                    incompleteBytes);
        } catch (EOFException | UTFDataFormatException e) {
            throw new IOException("the bytes end within a field or hold no modified UTF-8 string", e);
        }
    }

    private static ForeignRecoverable recoverable(
            ForeignWriter writer,
            byte[] bytes,
            String key,
            String uploadId,
            List<CompletedPart> parts,
            long bytesInParts,
            String incompleteKey,
            long incompleteBytes)
            throws IOException {
        if (key.isEmpty() || uploadId.isEmpty()) {
            throw new IOException("empty key or upload id");
        }
        if (bytesInParts < 0 || (incompleteKey != null && incompleteBytes < 0)) {
            throw new IOException("negative length: " + bytesInParts + " bytes in parts, incomplete part of "
                    + incompleteBytes + " bytes");
        }
        int previous = 0;
        for (CompletedPart part : parts) {
            if (part.partNumber() <= previous) {
                throw new IOException("part numbers not ascending: " + parts);
            }
            previous = part.partNumber();
        }
        return new ForeignRecoverable(
                writer, 1, bytes, key, uploadId, parts, bytesInParts, incompleteKey, incompleteBytes);
    }

    /** A list of {@code count} empty slots, after checking the count is one S3 allows. */
    private static List<CompletedPart> parts(int count) throws IOException {
        if (count < 0 || count > CompletedPart.MAX_PART_NUMBER) {
            throw new IOException(count + " parts");
        }
        List<CompletedPart> parts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            parts.add(null);
        }
        return parts;
    }

    private static CompletedPart part(int number, String eTag) throws IOException {
        if (number < 1 || number > CompletedPart.MAX_PART_NUMBER || eTag.isEmpty()) {
            throw new IOException("part " + number + " with ETag '" + eTag + "'");
        }
        return new CompletedPart(number, eTag, -1);
    }

    /** An int length in bytes, then that many bytes of UTF-8. */
    private static String utf8(ByteBuffer in) throws IOException {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new IOException("a string of " + length + " bytes where " + in.remaining() + " are left");
        }
        ByteBuffer slice = in.slice();
        slice.limit(length);
        in.position(in.position() + length);
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(slice)
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IOException("a string that is not UTF-8", e);
        }
    }
}
