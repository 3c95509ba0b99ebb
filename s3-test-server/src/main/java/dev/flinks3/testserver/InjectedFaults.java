package dev.flinks3.testserver;

/**
 * How many random faults a server has injected so far (see {@link FaultProfile}).
 *
 * @param internalErrors requests answered with 500 InternalError
 * @param slowDowns requests answered with 503 SlowDown
 * @param resets connections closed before a response
 */
public record InjectedFaults(long internalErrors, long slowDowns, long resets) {

    /** No faults. */
    public static final InjectedFaults NONE = new InjectedFaults(0, 0, 0);

    /** All injected faults. */
    public long total() {
        return internalErrors + slowDowns + resets;
    }
}
