package dev.flinks3.bench.run;

/** A benchmark run that cannot go on: the job failed, timed out, or its restored state did not verify. */
public final class RunFailure extends Exception {

    private static final long serialVersionUID = 1L;

    public RunFailure(String message) {
        super(message);
    }

    public RunFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
