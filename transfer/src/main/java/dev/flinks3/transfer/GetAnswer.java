package dev.flinks3.transfer;

/**
 * What one {@link GetRequest} got: the bytes delivered into its buffer or file (or, for a stream, the stream to
 * read), the object's length and its ETag. Immutable.
 */
public final class GetAnswer {

    private final long bytes;
    private final long objectLength;
    private final String eTag;
    private final RangeStream stream;

    private GetAnswer(long bytes, long objectLength, String eTag, RangeStream stream) {
        this.bytes = bytes;
        this.objectLength = objectLength;
        this.eTag = eTag;
        this.stream = stream;
    }

    /**
     * The answer of a buffer or file target.
     *
     * @param bytes bytes copied into the buffer or written into the file, from the range's start on
     * @param objectLength the whole object's length in bytes, as the answer told it ({@code Content-Range})
     * @param eTag the object's ETag as the answer told it, {@code null} if it had none (the GET of an empty object)
     */
    public static GetAnswer delivered(long bytes, long objectLength, String eTag) {
        return new GetAnswer(bytes, objectLength, eTag, null);
    }

    /** The answer of a stream target: the body to read, with the object's length and ETag it tells. */
    public static GetAnswer streaming(RangeStream body) {
        return new GetAnswer(-1, body.objectLength(), body.eTag(), body);
    }

    /** Bytes delivered into the buffer or file; fewer than asked for only where the object ends first; -1 for a stream. */
    public long bytes() {
        return bytes;
    }

    /** The whole object's length in bytes. */
    public long objectLength() {
        return objectLength;
    }

    /** The ETag of the object version the bytes came from, {@code null} if the answer had none. */
    public String eTag() {
        return eTag;
    }

    /**
     * The body of a stream target, for the caller to read and close (or abort); {@code null} for the other targets.
     */
    public RangeStream stream() {
        return stream;
    }

    @Override
    public String toString() {
        return "GetAnswer{bytes=" + bytes + ", objectLength=" + objectLength + ", eTag=" + eTag
                + (stream == null ? "" : ", streaming") + "}";
    }
}
