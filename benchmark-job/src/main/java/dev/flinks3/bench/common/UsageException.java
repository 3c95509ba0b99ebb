package dev.flinks3.bench.common;

/**
 * A user's mistake found while a command runs (a file that is not there, an endpoint nothing answers
 * at, a name that means nothing): the benchmark jar prints its message as one line and exits with 2,
 * as for an option it could not parse, without a stack trace. The message names the option or URL and
 * what was expected.
 */
public final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message the one line the user reads, naming the option or URL and what was expected
     */
    public UsageException(String message) {
        super(message);
    }

    /**
     * @param message the one line the user reads, naming the option or URL and what was expected
     * @param cause what was found, kept for a debugger; not printed
     */
    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
