package dev.flinks3.transfer;

/**
 * What one {@link ObjectClient#readIntoFile} wrote: how many bytes, the object's length and its ETag.
 * Immutable.
 */
public final class RangeDownload {

    private final long bytes;
    private final long objectLength;
    private final String eTag;

    /**
     * @param bytes bytes written into the file, from the range's start on
     * @param objectLength the whole object's length in bytes, as the answer told it ({@code Content-Range})
     * @param eTag the object's ETag as the answer told it, {@code null} if it had none (the GET of an empty object)
     */
    public RangeDownload(long bytes, long objectLength, String eTag) {
        this.bytes = bytes;
        this.objectLength = objectLength;
        this.eTag = eTag;
    }

    /** Bytes written; fewer than asked for only where the object ends first. */
    public long bytes() {
        return bytes;
    }

    /** The whole object's length in bytes. */
    public long objectLength() {
        return objectLength;
    }

    /** The ETag of the object version the bytes came from; send it as {@code If-Match} for the other ranges. */
    public String eTag() {
        return eTag;
    }

    @Override
    public String toString() {
        return "RangeDownload{bytes=" + bytes + ", objectLength=" + objectLength + ", eTag=" + eTag + "}";
    }
}
