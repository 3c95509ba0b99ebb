package dev.flinks3.bench.checkpoint.run;

import dev.flinks3.bench.checkpoint.results.RunResult;
import java.util.concurrent.Callable;

/**
 * How a {@link BenchmarkRun} ended, as a report records it: the result (a partial one when it failed
 * after the checkpointing phase, null when there is none) and the error, empty when the restored state
 * verified.
 *
 * @param run the run's result, partial or null on failure
 * @param error why the run failed, empty if it did not
 */
public record RunOutcome(RunResult run, String error) {

    /**
     * Runs {@code run} to its end; never throws: a failure, or a restore that did not verify, is the
     * outcome's error ({@link FailureMessages#describe} of its causes).
     */
    public static RunOutcome of(Callable<RunResult> run) {
        try {
            RunResult result = run.call();
            return new RunOutcome(
                    result, result.restore().verified() ? "" : "restored state did not verify: " + result.restore());
        } catch (RunFailure e) {
            return new RunOutcome(e.partial().orElse(null), e.getMessage());
        } catch (Exception e) {
            return new RunOutcome(null, FailureMessages.describe(e));
        }
    }

    /** Whether the run failed. */
    public boolean failed() {
        return !error.isEmpty();
    }
}
