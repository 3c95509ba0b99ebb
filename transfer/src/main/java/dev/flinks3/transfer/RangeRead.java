package dev.flinks3.transfer;

/**
 * What one {@link ObjectClient#readInto} delivered: how many bytes it copied and the object's length.
 * Immutable.
 */
public final class RangeRead {

    private final int bytes;
    private final long objectLength;

    /**
     * @param bytes bytes copied into the caller's array, from its offset on
     * @param objectLength the whole object's length in bytes, as the answer told it ({@code Content-Range})
     */
    public RangeRead(int bytes, long objectLength) {
        this.bytes = bytes;
        this.objectLength = objectLength;
    }

    /** Bytes copied into the caller's array; fewer than asked for only where the object ends first. */
    public int bytes() {
        return bytes;
    }

    /** The whole object's length in bytes. */
    public long objectLength() {
        return objectLength;
    }

    @Override
    public String toString() {
        return "RangeRead{bytes=" + bytes + ", objectLength=" + objectLength + "}";
    }
}
