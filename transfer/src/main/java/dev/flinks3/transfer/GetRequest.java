package dev.flinks3.transfer;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One ranged GetObject through the {@link ObjectClient} seam: which object, which bytes, which version ({@code
 * If-Match}), and where the body goes: handed to the caller as a stream it reads ({@link #stream}), copied into a
 * buffer as it arrives ({@link #into}), or written into a local file at the range's offset ({@link #intoFile}). A
 * request whose caller waits for the answer at once ({@link #waiting()}: a positional read) may be sent on the
 * caller's thread. Immutable; {@link #ifMatch} and {@link #waiting} return changed copies.
 *
 * <p>S3 API reference, GetObject: {@code Range} (bytes {@code start} to {@code endExclusive - 1}) and {@code
 * If-Match}.
 */
public final class GetRequest {

    /** Where the body of the answer goes. */
    public enum Target {
        /** A {@link RangeStream} the caller reads and closes ({@link GetAnswer#stream()}). */
        STREAM,
        /** Copied into {@link #buffer()} from its position on, as it arrives. */
        BUFFER,
        /** Written into {@link #file()} at the range's offset, as it arrives. */
        FILE
    }

    private final S3Location location;
    private final long start;
    private final long endExclusive;
    private final String ifMatch;
    private final Target target;
    private final ByteBuffer buffer;
    private final Path file;
    private final boolean waiting;

    private GetRequest(
            S3Location location,
            long start,
            long endExclusive,
            String ifMatch,
            Target target,
            ByteBuffer buffer,
            Path file,
            boolean waiting) {
        this.location = Objects.requireNonNull(location, "location");
        if (start < 0 || endExclusive <= start) {
            throw new IllegalArgumentException("invalid range [" + start + ", " + endExclusive + ") of " + location);
        }
        this.start = start;
        this.endExclusive = endExclusive;
        this.ifMatch = ifMatch;
        this.target = target;
        this.buffer = buffer;
        this.file = file;
        this.waiting = waiting;
    }

    /**
     * Bytes {@code [start, endExclusive)} as a stream the caller reads; {@code endExclusive} may exceed the object's
     * length (the stream then ends at the object's end).
     *
     * @throws IllegalArgumentException if {@code start} is negative or the range is empty
     */
    public static GetRequest stream(S3Location location, long start, long endExclusive) {
        return new GetRequest(location, start, endExclusive, null, Target.STREAM, null, null, false);
    }

    /**
     * Bytes {@code [start, start + dst.remaining())} copied into {@code dst} (heap or direct) from its position on;
     * {@code dst}'s position and limit are not moved, and it must not be read until the answer came.
     *
     * @throws IllegalArgumentException if {@code start} is negative or {@code dst} has no room
     */
    public static GetRequest into(S3Location location, long start, ByteBuffer dst) {
        if (!dst.hasRemaining()) {
            throw new IllegalArgumentException("no room in the buffer for a GET of " + location + " at " + start);
        }
        return new GetRequest(location, start, start + dst.remaining(), null, Target.BUFFER, dst, null, false);
    }

    /**
     * Bytes {@code [start, endExclusive)} written into the existing local {@code file} at the same offset (the file
     * is never truncated); {@code endExclusive} may exceed the object's length.
     *
     * @throws IllegalArgumentException if {@code start} is negative or the range is empty
     */
    public static GetRequest intoFile(S3Location location, long start, long endExclusive, Path file) {
        return new GetRequest(
                location, start, endExclusive, null, Target.FILE, null, Objects.requireNonNull(file, "file"), false);
    }

    /**
     * This request for one version of the object: the GET sends {@code If-Match} with {@code eTag}, so an object
     * replaced since fails with 412 instead of mixing bytes of two versions.
     *
     * @param eTag the ETag the object must still have, {@code null} for whatever version is there
     */
    public GetRequest ifMatch(String eTag) {
        return new GetRequest(location, start, endExclusive, eTag, target, buffer, file, waiting);
    }

    /**
     * This request for a caller that waits for its answer right away (a positional read): the client may send it
     * on the calling thread, and its future is then complete when {@link ObjectClient#get} returns.
     */
    public GetRequest waiting() {
        return new GetRequest(location, start, endExclusive, ifMatch, target, buffer, file, true);
    }

    /** The object the GET reads. */
    public S3Location location() {
        return location;
    }

    /** The first byte asked for. */
    public long start() {
        return start;
    }

    /** The byte after the last one asked for. */
    public long endExclusive() {
        return endExclusive;
    }

    /** The ETag sent as {@code If-Match}, {@code null} for none. */
    public String ifMatch() {
        return ifMatch;
    }

    /** Where the body of the answer goes. */
    public Target target() {
        return target;
    }

    /** The buffer of a {@link Target#BUFFER} request, else {@code null}. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** The file of a {@link Target#FILE} request, else {@code null}. */
    public Path file() {
        return file;
    }

    /** Whether the caller waits for the answer at once. */
    public boolean isWaiting() {
        return waiting;
    }

    @Override
    public String toString() {
        return "GetRequest{" + location + " [" + start + ", " + endExclusive + ") " + target
                + (ifMatch == null ? "" : " If-Match " + ifMatch) + (waiting ? ", waiting" : "") + "}";
    }
}
