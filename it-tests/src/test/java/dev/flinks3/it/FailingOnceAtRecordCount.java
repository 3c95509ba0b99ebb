package dev.flinks3.it;

import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;

/**
 * Formats numbered records into lines, and fails the task once per attempt of subtask 0, for the first
 * {@code failures} attempts: after a record count drawn at random for the attempt (seeded, so a run
 * can be repeated), at the first record that finds no checkpoint of its own in flight and at least one
 * checkpoint completed in this attempt. Flink restarts the task from the last completed checkpoint.
 *
 * <p>Why "no checkpoint in flight": a failure between the sink's {@code persist()} for checkpoint n and
 * the completion of n leaves n aborted. A part file opened after checkpoint n-1 and persisted for n is
 * then named by no completed checkpoint: Flink's {@code FileSink} never recovers, commits or cleans it,
 * so its multipart upload and tail object stay behind until a bucket lifecycle rule removes them (the
 * same holds for Flink's own S3 writers). The test asserts that nothing at all is left behind, which
 * holds only for failures outside that window. The operators of the chain snapshot in one synchronous
 * step of the task thread, so a record that sees no checkpoint of its own in flight is outside it.
 *
 * <p>The number of failures thrown is counted in a static counter: tasks run in the test's JVM.
 */
final class FailingOnceAtRecordCount extends RichMapFunction<Long, String>
        implements CheckpointedFunction, CheckpointListener {

    /** Failures thrown since the last {@link #reset()}. */
    static final AtomicInteger FAILURES_THROWN = new AtomicInteger();

    private final int failures;
    private final int minRecords;
    private final int maxRecords;
    private transient boolean failing;
    private transient long threshold;
    private transient long records;
    private transient long lastSnapshot = -1;
    private transient long lastSettled = -1;
    private transient boolean completedInThisAttempt;

    /**
     * @param failures attempts of subtask 0 that fail, the first ones
     * @param minRecords fewest records an attempt processes before it may fail
     * @param maxRecords most records an attempt processes before it may fail (plus the wait for no
     *     checkpoint in flight)
     */
    FailingOnceAtRecordCount(int failures, int minRecords, int maxRecords) {
        this.failures = failures;
        this.minRecords = minRecords;
        this.maxRecords = maxRecords;
    }

    static void reset() {
        FAILURES_THROWN.set(0);
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
        int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
        failing = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0 && attempt < failures;
        threshold = minRecords + new Random(attempt).nextInt(maxRecords - minRecords + 1);
    }

    @Override
    public String map(Long number) {
        records++;
        if (failing && records >= threshold && completedInThisAttempt && lastSettled >= lastSnapshot) {
            failing = false;
            FAILURES_THROWN.incrementAndGet();
            throw new InjectedFailure("injected failure after " + records + " records of attempt "
                    + getRuntimeContext().getTaskInfo().getAttemptNumber());
        }
        return NumberedRecords.line(number);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        lastSnapshot = context.getCheckpointId();
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        lastSettled = Math.max(lastSettled, checkpointId);
        completedInThisAttempt = true;
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
        lastSettled = Math.max(lastSettled, checkpointId);
    }

    /** The failure this function throws, told apart from real ones in the job's exception history. */
    static final class InjectedFailure extends RuntimeException {
        InjectedFailure(String message) {
            super(message);
        }
    }
}
