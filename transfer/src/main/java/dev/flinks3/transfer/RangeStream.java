package dev.flinks3.transfer;

import java.io.InputStream;

/**
 * The body of one ranged GET. {@link #close()} drains nothing: callers that stop early call
 * {@link #abort()}, which drops the connection at once instead of reading the rest of the range.
 */
public abstract class RangeStream extends InputStream {

    /** Drops the underlying connection without reading the remaining bytes. Idempotent. */
    public abstract void abort();
}
