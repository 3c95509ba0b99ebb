package dev.flinks3.bench.checkpoint.run;

import dev.flinks3.bench.checkpoint.results.RunResult;
import java.util.Optional;

/**
 * A benchmark run that cannot go on: the job failed, timed out, or its restored state did not verify.
 * May carry what the run measured before it failed, so a report can still show it.
 */
public final class RunFailure extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient RunResult partial;

    public RunFailure(String message) {
        this(message, null, null);
    }

    public RunFailure(String message, Throwable cause, RunResult partial) {
        super(message, cause);
        this.partial = partial;
    }

    /** What the run measured before it failed, if anything. */
    public Optional<RunResult> partial() {
        return Optional.ofNullable(partial);
    }
}
