package dev.flinks3.it;

import java.util.Map;

/**
 * {@link ReadRetryAfterResetTest} with parallel read-ahead: after the first 1 MiB range, eight ranged
 * GETs of 1 MiB run at once, their bodies copied into the window by the HTTP client, and the reset
 * breaks one of them; the chunk is asked for again from where it broke. 24 MiB over at most nine
 * connections (the range's and eight in flight) puts more than 2.6 MiB on one of them, so some
 * connection always passes the reset point, in the body of a chunk after the 1 MiB range.
 */
class ParallelReadRetryAfterResetTest extends ReadRetryAfterResetTest {

    @Override
    protected Map<String, String> options() {
        return Map.of("s3.read.ahead-size", "1mb", "s3.read.ahead-parallelism", "8");
    }

    @Override
    protected int objectBytes() {
        return 24 * MIB;
    }

    @Override
    protected long resetAfterBytes() {
        return 5L * MIB / 4;
    }
}
