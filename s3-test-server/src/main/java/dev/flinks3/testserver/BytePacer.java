package dev.flinks3.testserver;

import java.io.InterruptedIOException;

/**
 * Holds back the bytes of a body until a rate allows them: {@link BodyPacer} paces one body (a
 * per-connection rate), {@link SharedBandwidthPacer} all bodies of a direction together (one link).
 */
interface BytePacer {

    /** Marks the start of the body's clock if it has one; called before a body's first read. */
    default void begin() {}

    /**
     * Accounts for {@code count} more bytes and blocks until they are due.
     *
     * @throws InterruptedIOException if interrupted while waiting
     */
    void pace(long count) throws InterruptedIOException;
}
