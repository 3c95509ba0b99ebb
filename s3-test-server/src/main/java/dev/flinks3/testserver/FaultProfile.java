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
 * @param midBodyResetRate fraction of requests with a body (a request body such as UploadPart's, or a GET's
 *     answer) whose connection is closed half-way through that body, in [0, 1]
 * @param slowRate fraction of requests answered only after {@code slowAnswerMillis}, in [0, 1]: past a
 *     client's attempt timeout when it is longer than that timeout, so the client abandons the attempt and
 *     retries while the server still serves the first one
 * @param slowAnswerMillis how long a slow answer waits before the request is served, in ms; 0 or positive
 */
public record FaultProfile(
        double errorRate,
        double resetRate,
        long seed,
        double midBodyResetRate,
        double slowRate,
        long slowAnswerMillis) {

    /** The seed used when none is given. */
    public static final long DEFAULT_SEED = 42;

    /** Resets are this many times rarer than error answers in {@link #of(double)}. */
    private static final double ERRORS_PER_RESET = 6;

    /** @throws IllegalArgumentException if a rate is outside [0, 1] or all together exceed 1 */
    public FaultProfile {
        requireFraction("errorRate", errorRate);
        requireFraction("resetRate", resetRate);
        requireFraction("midBodyResetRate", midBodyResetRate);
        requireFraction("slowRate", slowRate);
        if (errorRate + resetRate > 1) {
            throw new IllegalArgumentException(
                    "errorRate + resetRate must be at most 1, was " + (errorRate + resetRate));
        }
        if (errorRate + resetRate + midBodyResetRate + slowRate > 1) {
            throw new IllegalArgumentException("errorRate + resetRate + midBodyResetRate + slowRate must be at most 1,"
                    + " was " + (errorRate + resetRate + midBodyResetRate + slowRate));
        }
        if (slowAnswerMillis < 0) {
            throw new IllegalArgumentException("slowAnswerMillis must not be negative, was " + slowAnswerMillis);
        }
    }

    /** Errors and resets before the answer only: no mid-body resets, no slow answers. */
    public FaultProfile(double errorRate, double resetRate, long seed) {
        this(errorRate, resetRate, seed, 0, 0, 0);
    }

    /** Errors at {@code errorRate}, resets at a sixth of it (3% errors: 0.5% resets), {@link #DEFAULT_SEED}. */
    public static FaultProfile of(double errorRate) {
        return new FaultProfile(errorRate, errorRate / ERRORS_PER_RESET, DEFAULT_SEED);
    }

    /** The same rates with another seed. */
    public FaultProfile withSeed(long newSeed) {
        return new FaultProfile(errorRate, resetRate, newSeed, midBodyResetRate, slowRate, slowAnswerMillis);
    }

    /** The same faults, and connections closed half-way through a body at {@code rate}. */
    public FaultProfile withMidBodyResets(double rate) {
        return new FaultProfile(errorRate, resetRate, seed, rate, slowRate, slowAnswerMillis);
    }

    /** The same faults, and answers held back {@code millis} ms before the request is served at {@code rate}. */
    public FaultProfile withSlowAnswers(double rate, long millis) {
        return new FaultProfile(errorRate, resetRate, seed, midBodyResetRate, rate, millis);
    }

    @Override
    public String toString() {
        String base = String.format(
                Locale.ROOT, "errors %.2f%%, resets %.2f%%, seed %d", errorRate * 100, resetRate * 100, seed);
        if (midBodyResetRate > 0) {
            base += String.format(Locale.ROOT, ", mid-body resets %.2f%%", midBodyResetRate * 100);
        }
        if (slowRate > 0) {
            base += String.format(Locale.ROOT, ", slow answers %.2f%% (%d ms)", slowRate * 100, slowAnswerMillis);
        }
        return base;
    }

    private static void requireFraction(String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1], was " + value);
        }
    }
}
