package dev.flinks3.writer;

import dev.flinks3.transfer.S3Location;
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
 */
public final class TailObjects {

    /** The marker in every tail object's name. */
    public static final String MARKER = ".s3-tail.";

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

    /** A new tail object location for the stream's persist at {@code position} bytes. */
    static S3Location newTail(S3Location target, String streamId, long position) {
        String random = UUID.randomUUID().toString().substring(0, 8);
        return target.withKey(streamPrefix(target, streamId) + position + "." + random);
    }

    /** The key prefix shared by all tail objects of one stream. */
    static String streamPrefix(S3Location target, String streamId) {
        return targetPrefix(target) + streamId + ".";
    }

    /** The key prefix shared by the tail objects of every stream to {@code target}. */
    static String targetPrefix(S3Location target) {
        String key = target.key();
        int slash = key.lastIndexOf('/');
        String directory = key.substring(0, slash + 1);
        String name = key.substring(slash + 1);
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
}
