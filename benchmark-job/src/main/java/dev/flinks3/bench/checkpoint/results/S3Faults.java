package dev.flinks3.bench.checkpoint.results;

import java.util.List;

/**
 * The random faults the embedded S3 server injected over a whole benchmark (every contender and
 * round, warm-up included): the profile asked for and what was injected.
 *
 * @param errorRate fraction of signed requests to answer with 500 InternalError or 503 SlowDown
 * @param resetRate fraction of signed requests whose connection is closed without an answer
 * @param seed seed of the server's random choice
 * @param internalErrors requests answered with 500 InternalError
 * @param slowDowns requests answered with 503 SlowDown
 * @param resets connections closed before a response
 * @param midBodyResets connections closed half-way through a request's or an answer's body
 * @param slowAnswers requests held back before they were served
 * @param slowAnswerMillis how long each held-back request waited before it was served, ms
 * @param slowAnswerEpochMillis when each held-back request began to wait, epoch ms, in order (the first 100,000);
 *     null in results written before it was recorded
 */
public record S3Faults(
        double errorRate,
        double resetRate,
        long seed,
        long internalErrors,
        long slowDowns,
        long resets,
        long midBodyResets,
        long slowAnswers,
        long slowAnswerMillis,
        List<Long> slowAnswerEpochMillis) {

    /** All injected faults. */
    public long injected() {
        return internalErrors + slowDowns + resets + midBodyResets + slowAnswers;
    }
}
