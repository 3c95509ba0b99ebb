package dev.flinks3.writer;

import dev.flinks3.transfer.S3Location;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Where tail objects live and how they are recognised.
 *
 * <p>A tail object holds the bytes a {@code persist()} could not put into a part (below S3's 5 MiB
 * part minimum). It sits beside its target, in the same directory, named
 * {@code .<name>.s3-tail.<stream id>.<position>.<random>}: the leading dot hides it from tools that
 * skip hidden files (Flink's file source, Hadoop input formats), the marker lets the filesystem drop it
 * from {@code listStatus} ({@link #isTailObjectName}), and being a sibling rather than a child it never
 * makes the target look like a directory. The stream id and position (bytes written when it was
 * persisted) let a recovery find the tails of later persists of the same stream; the random part
 * keeps every persist's tail separate, so cleaning up one resumable never removes another's bytes.
 *
 * <p>S3 keys hold at most {@value S3Location#MAX_KEY_BYTES} bytes. Where the target's directory and name
 * leave too little room for the marker, stream id, position and random part ({@value #SUFFIX_BYTES} bytes
 * with the dot), the name is replaced by {@code ~} and 32 hex digits of its SHA-256, which still gives one
 * prefix per target; where even that does not fit, persisting fails with an {@link IOException} naming the
 * lengths.
 */
public final class TailObjects {

    /** The marker in every tail object's name. */
    public static final String MARKER = ".s3-tail.";

    /** Bytes a tail key adds to the target's directory and name: dot, marker, id, longest position, random. */
    static final int SUFFIX_BYTES = 1 + MARKER.length() + 32 + 1 + 19 + 1 + 8;

    /** What follows a target's tail prefix: 32 hex digits of stream id, the position, 8 random hex digits. */
    private static final Pattern SUFFIX = Pattern.compile("[0-9a-f]{32}\\.[0-9]+\\.[0-9a-f]{8}");

    private TailObjects() {}

    /** True if {@code fileName} (the last path segment) names a tail object; the filesystem hides these. */
    public static boolean isTailObjectName(String fileName) {
        return fileName.startsWith(".") && fileName.contains(MARKER);
    }

    /** A fresh random stream id: 32 hex digits. */
    static String newStreamId() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /**
     * A new tail object location for the stream's persist at {@code position} bytes.
     *
     * @throws IOException if no tail key of the target fits S3's key limit, naming the lengths
     */
    static S3Location newTail(S3Location target, String streamId, long position) throws IOException {
        String random = UUID.randomUUID().toString().substring(0, 8);
        String key = streamPrefix(target, streamId) + position + "." + random;
        int bytes = utf8Length(key);
        if (bytes > S3Location.MAX_KEY_BYTES) {
            throw new IOException("Cannot persist the stream to " + target + ": the key of its tail object would be "
                    + bytes + " bytes, longer than the " + S3Location.MAX_KEY_BYTES + " bytes S3 allows (the"
                    + " target's directory alone has " + utf8Length(directory(target.key())) + " bytes). Write to a"
                    + " directory with a shorter path.");
        }
        return target.withKey(key);
    }

    /** The key prefix shared by all tail objects of one stream. */
    static String streamPrefix(S3Location target, String streamId) {
        return targetPrefix(target) + streamId + ".";
    }

    /** The key prefix shared by the tail objects of every stream to {@code target}. */
    static String targetPrefix(S3Location target) {
        String key = target.key();
        String directory = directory(key);
        String name = key.substring(directory.length());
        if (utf8Length(directory) + utf8Length(name) + SUFFIX_BYTES > S3Location.MAX_KEY_BYTES) {
            name = "~" + sha256Hex(name).substring(0, 32);
        }
        return directory + "." + name + MARKER;
    }

    /**
     * True if {@code key} is a tail object of a stream to {@code target}, not merely a key that starts
     * like one (the tails of a target named {@code a.s3-tail.x} also start with the prefix of {@code a}).
     */
    static boolean isTailOf(String key, S3Location target) {
        String prefix = targetPrefix(target);
        return key.startsWith(prefix)
                && SUFFIX.matcher(key).region(prefix.length(), key.length()).matches();
    }

    /**
     * The position encoded in a tail key of the stream with {@code prefix}, or -1 if the key does not
     * have the expected form.
     */
    static long positionOf(String key, String prefix) {
        if (!key.startsWith(prefix)) {
            return -1;
        }
        int end = key.indexOf('.', prefix.length());
        if (end < 0) {
            return -1;
        }
        try {
            return Long.parseLong(key.substring(prefix.length(), end));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The directory part of a key, with its trailing slash; empty at the bucket's root. */
    private static String directory(String key) {
        return key.substring(0, key.lastIndexOf('/') + 1);
    }

    private static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static String sha256Hex(String s) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(digest.length * 2);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
