package dev.flinks3.testserver;

import java.util.Locale;

/**
 * Random faults a server injects into authenticated requests: a fraction answered with an S3 error
 * that clients retry (500 InternalError or 503 SlowDown, half each), and a smaller fraction whose
 * connection is closed before any response is sent. A seed makes the choice reproducible for the
 * same sequence of requests.
 *
 * @param errorRate fraction of requests answered with 500 or 503, in [0, 1]
 * @param resetRate fraction of requests whose connection is closed without an answer, in [0, 1]
 * @param seed seed of the random choice
 */
public record FaultProfile(double errorRate, double resetRate, long seed) {

    /** The seed used when none is given. */
    public static final long DEFAULT_SEED = 42;

    /** Resets are this many times rarer than error answers in {@link #of(double)}. */
    private static final double ERRORS_PER_RESET = 6;

    /** @throws IllegalArgumentException if a rate is outside [0, 1] or both together exceed 1 */
    public FaultProfile {
        requireFraction("errorRate", errorRate);
        requireFraction("resetRate", resetRate);
        if (errorRate + resetRate > 1) {
            throw new IllegalArgumentException(
                    "errorRate + resetRate must be at most 1, was " + (errorRate + resetRate));
        }
    }

    /** Errors at {@code errorRate}, resets at a sixth of it (3% errors: 0.5% resets), {@link #DEFAULT_SEED}. */
    public static FaultProfile of(double errorRate) {
        return new FaultProfile(errorRate, errorRate / ERRORS_PER_RESET, DEFAULT_SEED);
    }

    /** The same rates with another seed. */
    public FaultProfile withSeed(long newSeed) {
        return new FaultProfile(errorRate, resetRate, newSeed);
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT, "errors %.2f%%, resets %.2f%%, seed %d", errorRate * 100, resetRate * 100, seed);
    }

    private static void requireFraction(String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1], was " + value);
        }
    }
}
