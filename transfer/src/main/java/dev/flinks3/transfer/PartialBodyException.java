package dev.flinks3.transfer;

import java.io.IOException;

/**
 * A ranged GET whose body broke after it had begun to arrive (a reset connection, a socket timeout, a
 * body shorter than its {@code Content-Length}): the bytes before the break are in the caller's array
 * and can be trusted, so the caller may ask for the rest with a new ranged GET from there.
 * {@link #bytesCopied()} is 0 where none of the bytes can be trusted (a body checked against the
 * object's checksum that failed the check).
 */
public final class PartialBodyException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int bytesCopied;

    /**
     * @param message what broke, naming the location
     * @param bytesCopied trusted bytes in the caller's array, from its offset on
     * @param cause the failure of the body
     */
    public PartialBodyException(String message, int bytesCopied, Throwable cause) {
        super(message, cause);
        this.bytesCopied = bytesCopied;
    }

    /** Bytes of the body in the caller's array that can be trusted. */
    public int bytesCopied() {
        return bytesCopied;
    }
}
