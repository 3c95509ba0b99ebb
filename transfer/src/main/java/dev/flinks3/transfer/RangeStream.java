package dev.flinks3.transfer;

import java.io.InputStream;

/**
 * The body of one ranged GET. {@link #close()} drains nothing: callers that stop early call
 * {@link #abort()}, which drops the connection at once instead of reading the rest of the range.
 */
public abstract class RangeStream extends InputStream {

    /** Drops the underlying connection without reading the remaining bytes. Idempotent. */
    public abstract void abort();

    /**
     * Length of the whole object in bytes, as the server reported it in {@code Content-Range} (or
     * {@code Content-Length} when the answer was the whole object).
     */
    public abstract long objectLength();

    /**
     * The object's ETag as the answer told it, to send as {@code If-Match} with the next GETs of the
     * same stream (S3 API reference, GetObject: "If-Match"); {@code null} if the answer had none (the
     * GET of an empty object) or the implementation does not tell it.
     */
    public String eTag() {
        return null;
    }
}
