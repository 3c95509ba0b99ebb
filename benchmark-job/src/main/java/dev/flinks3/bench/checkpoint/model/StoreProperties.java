package dev.flinks3.bench.checkpoint.model;

import dev.flinks3.testserver.NetworkProfile;

/**
 * What an S3 store charges the requests of a checkpoint, as {@link CheckpointModel} sees it.
 *
 * @param name the store's name in reports
 * @param latencySeconds added once to every request (until its first byte), in seconds; zero or positive
 * @param connectionBytesPerSecond the rate of one connection's body (one request at a time), in bytes per
 *     second; 0 for no limit
 * @param aggregateBytesPerSecond the rate all of the job's connections share, in bytes per second; 0 for no
 *     limit
 * @param writeRequestsPerSecond write requests (PUT, POST, DELETE, COPY) per second the store accepts under
 *     the checkpoint directory's prefix before it throttles, 0 for no limit (S3 documents 3,500 per second per
 *     partitioned prefix)
 */
public record StoreProperties(
        String name,
        double latencySeconds,
        double connectionBytesPerSecond,
        double aggregateBytesPerSecond,
        double writeRequestsPerSecond) {

    /**
     * @throws IllegalArgumentException if a figure is negative or not a number
     */
    public StoreProperties {
        requireNonNegative("latencySeconds", latencySeconds);
        requireNonNegative("connectionBytesPerSecond", connectionBytesPerSecond);
        requireNonNegative("aggregateBytesPerSecond", aggregateBytesPerSecond);
        requireNonNegative("writeRequestsPerSecond", writeRequestsPerSecond);
    }

    /** The store the embedded server emulates with {@code profile}: no request-rate limit. */
    public static StoreProperties of(NetworkProfile profile) {
        return new StoreProperties(
                profile.toString(),
                profile.latency().toNanos() / 1e9,
                profile.bytesPerSecond(),
                profile.sharedBytesPerSecond(),
                0);
    }

    /** Whether every request costs the same nothing: no latency and no bandwidth limit. */
    public boolean free() {
        return latencySeconds == 0 && connectionBytesPerSecond == 0 && aggregateBytesPerSecond == 0;
    }

    private static void requireNonNegative(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be zero or a positive number, was " + value);
        }
    }
}
