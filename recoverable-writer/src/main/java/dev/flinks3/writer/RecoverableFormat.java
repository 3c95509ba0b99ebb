package dev.flinks3.writer;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * What a serialized recoverable is, told by its content, not by its version alone: Flink's {@code FileSink}
 * keeps, beside the bytes, the version the writer's serializer declared, and the other plugins' serializers
 * ({@link ForeignWriter}) declare version 1 too, as this plugin's first form did.
 *
 * <ul>
 *   <li>Version 3 (written now) opens with the magic number {@value #MAGIC_HEX}, then one byte: {@link #OWN} for
 *       this plugin's own state, {@link #FOREIGN} for another plugin's state carried on unchanged (one byte for
 *       the plugin, int version, int length, its bytes).
 *   <li>Bytes that open with flink-s3-fs-hadoop's magic number are that plugin's.
 *   <li>Versions 1 and 2 are this plugin's older forms if they read as such to the last byte; other bytes of
 *       version 1 are flink-s3-fs-native's if they read as that form to the last byte.
 * </ul>
 *
 * Anything else fails, naming the forms this build reads and what to do: restore with the plugin that
 * wrote the state and stop with a savepoint after draining ({@code flink stop --drain}).
 */
final class RecoverableFormat {

    static final int VERSION_1 = 1;
    static final int VERSION_2 = 2;
    static final int VERSION_3 = 3;
    static final int CURRENT = VERSION_3;

    /** Opens every form from version 3 on. */
    static final int MAGIC = 0xF153C0DE;

    static final String MAGIC_HEX = "0xF153C0DE";

    /** This plugin's own state follows. */
    static final byte OWN = 0;

    /** Another plugin's state follows, as it wrote it. */
    static final byte FOREIGN = 1;

    private static final String WHAT_TO_DO = "To switch plugins with such state, restore the job with the plugin"
            + " that wrote it, stop it with a savepoint after draining its files (flink stop --drain <job id>), so that"
            + " no file is left in progress or pending, and start the job from that savepoint with flinks3.";

    private RecoverableFormat() {}

    /** Reads this plugin's own form of a version from {@code in}. */
    @FunctionalInterface
    interface OwnForm {
        Object read(DataInputStream in, int version) throws IOException;
    }

    /** Opens the current form: magic number, then {@code kind}. */
    static void writeHeader(DataOutputStream out, byte kind) throws IOException {
        out.writeInt(MAGIC);
        out.writeByte(kind);
    }

    /** The current form of another plugin's state: header, plugin, its version, its bytes. */
    static void writeForeign(DataOutputStream out, ForeignRecoverable foreign) throws IOException {
        writeHeader(out, FOREIGN);
        out.writeByte(foreign.writer().code());
        out.writeInt(foreign.version());
        byte[] bytes = foreign.serialized();
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /**
     * Reads a recoverable of serializer version {@code version}: this plugin's ({@code own}) or another
     * plugin's ({@link ForeignRecoverable}).
     *
     * @param what {@code "resume recoverable"} or {@code "commit recoverable"}, for messages
     * @throws IOException naming the writer where it is known, the forms this build reads and what to do
     */
    static Object read(String what, int version, byte[] bytes, OwnForm own) throws IOException {
        String described = "S3 " + what + " of serializer version " + version + " (" + bytes.length + " bytes)";
        if (opensWithMagic(bytes)) {
            if (version > CURRENT) {
                throw new IOException("Cannot read the " + described + ": it was written by a newer version of"
                        + " flinks3; this build reads versions " + VERSION_1 + " to " + CURRENT + ". Restore the job"
                        + " with the version that wrote it. " + WHAT_TO_DO);
            }
            if (version == VERSION_3) {
                return readCurrent(described, bytes, own);
            }
        }
        if (ForeignFormats.looksLikeHadoop(bytes)) {
            try {
                return ForeignFormats.read(ForeignWriter.FLINK_S3_FS_HADOOP, version, bytes);
            } catch (IOException e) {
                throw new IOException(
                        "Cannot read the " + described + ": it was written by flink-s3-fs-hadoop (its magic number"
                                + " opens the bytes), but " + e.getMessage() + ". " + WHAT_TO_DO,
                        e);
            }
        }
        IOException ownFailure = null;
        if (version == VERSION_1 || version == VERSION_2) {
            try {
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
                Object recoverable = own.read(in, version);
                requireEnd(in);
                return recoverable;
            } catch (IOException | IllegalArgumentException e) {
                ownFailure = new IOException("not flinks3's version " + version + ": " + e.getMessage(), e);
            }
        }
        IOException nativeFailure = null;
        if (version == VERSION_1) {
            try {
                return ForeignFormats.read(ForeignWriter.FLINK_S3_FS_NATIVE, version, bytes);
            } catch (IOException e) {
                nativeFailure = new IOException("not flink-s3-fs-native's version 1: " + e.getMessage(), e);
            }
        }
        IOException unknown = new IOException("Cannot read the " + described + ": it is in none of the forms"
                + " this plugin reads (flinks3's versions " + VERSION_1 + " to " + CURRENT + ", flink-s3-fs-hadoop's"
                + " S3RecoverableSerializer version 1, flink-s3-fs-native's NativeS3RecoverableSerializer version 1),"
                + " so another S3 plugin or a newer flinks3 wrote it. " + WHAT_TO_DO);
        if (ownFailure != null) {
            unknown.addSuppressed(ownFailure);
        }
        if (nativeFailure != null) {
            unknown.addSuppressed(nativeFailure);
        }
        throw unknown;
    }

    private static Object readCurrent(String described, byte[] bytes, OwnForm own) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        try {
            in.readInt();
            byte kind = in.readByte();
            if (kind == OWN) {
                Object recoverable = own.read(in, VERSION_3);
                requireEnd(in);
                return recoverable;
            }
            if (kind != FOREIGN) {
                throw new IOException("kind " + kind);
            }
            int code = in.readUnsignedByte();
            ForeignWriter writer = ForeignWriter.ofCode(code);
            if (writer == null) {
                throw new IOException("another plugin numbered " + code);
            }
            int version = in.readInt();
            int length = in.readInt();
            if (length < 0 || length > in.available()) {
                throw new IOException(
                        length + " bytes of " + writer.plugin() + " state where " + in.available() + " are left");
            }
            byte[] foreign = new byte[length];
            in.readFully(foreign);
            requireEnd(in);
            return ForeignFormats.read(writer, version, foreign);
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException(
                    "Corrupt " + described + " of flinks3 (magic number " + MAGIC_HEX + "): " + e.getMessage(), e);
        }
    }

    private static boolean opensWithMagic(byte[] bytes) {
        return bytes.length >= 4 && ByteBuffer.wrap(bytes).getInt(0) == MAGIC;
    }

    private static void requireEnd(DataInputStream in) throws IOException {
        if (in.available() > 0) {
            throw new IOException(in.available() + " bytes after the last field");
        }
    }
}
