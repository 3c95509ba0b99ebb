package dev.flinks3.testserver;

/**
 * How many random faults a server has injected so far (see {@link FaultProfile}).
 *
 * @param internalErrors requests answered with 500 InternalError
 * @param slowDowns requests answered with 503 SlowDown
 * @param resets connections closed before a response
 * @param midBodyResets connections closed half-way through a request's or an answer's body
 * @param slowAnswers requests held back before they were served
 */
public record InjectedFaults(long internalErrors, long slowDowns, long resets, long midBodyResets, long slowAnswers) {

    /** No faults. */
    public static final InjectedFaults NONE = new InjectedFaults(0, 0, 0);

    /** Errors and resets before the answer only. */
    public InjectedFaults(long internalErrors, long slowDowns, long resets) {
        this(internalErrors, slowDowns, resets, 0, 0);
    }

    /** All injected faults. */
    public long total() {
        return internalErrors + slowDowns + resets + midBodyResets + slowAnswers;
    }
}
