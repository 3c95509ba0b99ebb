package dev.flinks3.testserver;

import java.io.InterruptedIOException;

/**
 * Paces one body (request or response) to a byte rate with a deadline: the n-th byte is due at
 * {@code start + n / rate}, where the clock starts at the first chunk. Because each deadline is
 * computed from the start and not from the previous wake-up, an oversleep (parks round up, the
 * scheduler is late) shortens the next wait instead of adding up; S3Proxy's own throttled stream
 * sleeps a fixed time per 8 KiB and so loses most of its rate to rounding. Not thread-safe: one
 * body is read or written by one thread at a time.
 */
final class BodyPacer implements BytePacer {

    /** Waits shorter than this are skipped; the next deadline absorbs them. */
    private static final long MIN_SLEEP_NANOS = 1_000_000L;

    private final double nanosPerByte;
    private boolean started;
    private long startNanos;
    private long bytes;

    /** @param bytesPerSecond the target rate, positive */
    BodyPacer(long bytesPerSecond) {
        this.nanosPerByte = 1e9 / bytesPerSecond;
    }

    /** Marks the start of the body's clock if this is its first chunk. */
    @Override
    public void begin() {
        if (!started) {
            started = true;
            startNanos = System.nanoTime();
        }
    }

    /**
     * Accounts for {@code count} more bytes of the body and blocks until they are due.
     *
     * @throws InterruptedIOException if interrupted while waiting
     */
    @Override
    public void pace(long count) throws InterruptedIOException {
        begin();
        bytes += count;
        long due = startNanos + (long) (bytes * nanosPerByte);
        if (due - System.nanoTime() >= MIN_SLEEP_NANOS) {
            Deadlines.sleepUntil(due);
        }
    }
}
