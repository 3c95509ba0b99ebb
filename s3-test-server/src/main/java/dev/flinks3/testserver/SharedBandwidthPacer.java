package dev.flinks3.testserver;

import java.io.InterruptedIOException;

/**
 * One link's bandwidth shared by every connection, as a traffic shaper on the store's side would
 * enforce it: each chunk of any body reserves the next {@code count / rate} seconds of the link, after
 * the chunks reserved before it, and its writer waits until that slot has passed. N connections that
 * send at once therefore get {@code rate / N} each, and the bytes moved, not the number of connections,
 * decide how long a transfer takes. An idle link earns no credit (no burst beyond one chunk).
 * Thread-safe.
 */
final class SharedBandwidthPacer implements BytePacer {

    /** Waits shorter than this are skipped; the next reservation absorbs them. */
    private static final long MIN_SLEEP_NANOS = 1_000_000L;

    private final double nanosPerByte;
    private long linkFreeNanos = System.nanoTime();

    /** @param bytesPerSecond the link's rate in bytes per second, positive */
    SharedBandwidthPacer(long bytesPerSecond) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("bytesPerSecond must be positive, was " + bytesPerSecond);
        }
        this.nanosPerByte = 1e9 / bytesPerSecond;
    }

    @Override
    public void pace(long count) throws InterruptedIOException {
        long due;
        synchronized (this) {
            long now = System.nanoTime();
            if (linkFreeNanos - now < 0) {
                linkFreeNanos = now;
            }
            linkFreeNanos += (long) (count * nanosPerByte);
            due = linkFreeNanos;
        }
        if (due - System.nanoTime() >= MIN_SLEEP_NANOS) {
            Deadlines.sleepUntil(due);
        }
    }
}
