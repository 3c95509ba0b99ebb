package dev.flinks3.transfer;

/**
 * What one {@link ObjectClient#readInto} delivered: how many bytes it copied, the object's length and
 * its ETag. Immutable.
 */
public final class RangeRead {

    private final int bytes;
    private final long objectLength;
    private final String eTag;

    /**
     * A read whose answer told no ETag.
     *
     * @param bytes bytes copied into the caller's array, from its offset on
     * @param objectLength the whole object's length in bytes, as the answer told it ({@code Content-Range})
     */
    public RangeRead(int bytes, long objectLength) {
        this(bytes, objectLength, null);
    }

    /**
     * @param bytes bytes copied into the caller's array, from its offset on
     * @param objectLength the whole object's length in bytes, as the answer told it ({@code Content-Range})
     * @param eTag the object's ETag as the answer told it, {@code null} if it had none
     */
    public RangeRead(int bytes, long objectLength, String eTag) {
        this.bytes = bytes;
        this.objectLength = objectLength;
        this.eTag = eTag;
    }

    /** Bytes copied into the caller's array; fewer than asked for only where the object ends first. */
    public int bytes() {
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

    @Override
    public String toString() {
        return "RangeRead{bytes=" + bytes + ", objectLength=" + objectLength + ", eTag=" + eTag + "}";
    }
}
