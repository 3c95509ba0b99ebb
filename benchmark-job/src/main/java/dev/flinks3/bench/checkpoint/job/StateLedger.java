package dev.flinks3.bench.checkpoint.job;

import java.util.List;
import org.apache.flink.api.common.accumulators.Histogram;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.accumulators.LongMinimum;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateInitializationContext;

/**
 * What both accumulator operators ({@link StateAccumulatorOperator} on the synchronous state API,
 * {@link AsyncStateAccumulatorOperator} on the asynchronous one) keep besides the keyed values: the running
 * digest per key group ({@link KeyGroupDigests}), written to union operator state at every checkpoint, the
 * job's accumulators, and the comparison of state read back after a restore with what was recorded.
 * Not thread-safe: owned by the task thread.
 */
final class StateLedger {

    private final ListState<KeyGroupDigest> recordedDigests;
    private final KeyGroupDigests digests;
    private final long restoredCheckpointId;
    private final int maxParallelism;
    private final RuntimeContext runtimeContext;
    private LongCounter recordsProcessed;
    private LongCounter keysCreated;
    private LongCounter stateDigest;
    private PluginMetricsAccumulators pluginMetrics;
    /** Records of this subtask's key groups the restored job is to process before it verifies; 0 for none. */
    private long recordsAfterRestoreExpected;

    private long recordsAfterRestore;
    private LongMinimum firstRecordAfterRestoreMs;
    private Histogram recordsAfterRestorePerSecond;

    private StateLedger(
            ListState<KeyGroupDigest> recordedDigests,
            KeyGroupDigests digests,
            long restoredCheckpointId,
            int maxParallelism,
            RuntimeContext runtimeContext) {
        this.recordedDigests = recordedDigests;
        this.digests = digests;
        this.restoredCheckpointId = restoredCheckpointId;
        this.maxParallelism = maxParallelism;
        this.runtimeContext = runtimeContext;
    }

    /** Called from the operator's {@code initializeState}: the recorded digests, restored or zero. */
    static StateLedger initialize(StateInitializationContext context, RuntimeContext runtimeContext) throws Exception {
        ListState<KeyGroupDigest> recorded = context.getOperatorStateStore()
                .getUnionListState(
                        new ListStateDescriptor<>("keyGroupDigests", TypeInformation.of(KeyGroupDigest.class)));
        int maxParallelism = runtimeContext.getTaskInfo().getMaxNumberOfParallelSubtasks();
        KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
                maxParallelism,
                runtimeContext.getTaskInfo().getNumberOfParallelSubtasks(),
                runtimeContext.getTaskInfo().getIndexOfThisSubtask());
        if (context.isRestored()) {
            return new StateLedger(
                    recorded,
                    KeyGroupDigests.restored(range, recorded.get()),
                    context.getRestoredCheckpointId().orElse(-1),
                    maxParallelism,
                    runtimeContext);
        }
        return new StateLedger(recorded, new KeyGroupDigests(range), -1, maxParallelism, runtimeContext);
    }

    /** Called from the operator's {@code open}: registers the accumulators (the restored digest counts once). */
    void open() {
        recordsProcessed = counter(JobAccumulators.RECORDS_PROCESSED);
        keysCreated = counter(JobAccumulators.KEYS_CREATED);
        stateDigest = counter(JobAccumulators.STATE_DIGEST);
        pluginMetrics = PluginMetricsAccumulators.open(runtimeContext);
        if (restored()) {
            stateDigest.add(digests.totalDigest());
        }
    }

    /**
     * Called from the operator's {@code open} after {@link #open()}: in a restored job that is to process the
     * records {@code totalRecords .. totalRecords+recordsAfterRestore-1}, counts those of this subtask's key
     * groups (their keys alone, no payloads) and registers the accumulators that time them.
     */
    void expectRecordsAfterRestore(RecordGenerator generator, long totalRecords, long recordsAfterRestore) {
        if (!restored() || recordsAfterRestore == 0) {
            return;
        }
        long mine = 0;
        for (long index = totalRecords; index < totalRecords + recordsAfterRestore; index++) {
            if (digests.range().contains(keyGroup(generator.keyOf(index)))) {
                mine++;
            }
        }
        recordsAfterRestoreExpected = mine;
        firstRecordAfterRestoreMs = new LongMinimum();
        runtimeContext.addAccumulator(JobAccumulators.FIRST_RECORD_AFTER_RESTORE_MS, firstRecordAfterRestoreMs);
        recordsAfterRestorePerSecond = new Histogram();
        runtimeContext.addAccumulator(JobAccumulators.RECORDS_AFTER_RESTORE_PER_SECOND, recordsAfterRestorePerSecond);
    }

    /** Whether the restored job still has records of this subtask to process before it verifies its state. */
    boolean awaitsRecordsAfterRestore() {
        return recordsAfterRestore < recordsAfterRestoreExpected;
    }

    /**
     * Counts one record processed by the restored job (call after {@link #recordProcessed}).
     *
     * @return true for the record that completes this subtask's records after the restore: time to verify
     */
    boolean recordAfterRestoreProcessed() {
        if (recordsAfterRestorePerSecond == null || !awaitsRecordsAfterRestore()) {
            return false;
        }
        long now = System.currentTimeMillis();
        firstRecordAfterRestoreMs.add(now);
        recordsAfterRestorePerSecond.add((int) (now / 1000));
        return ++recordsAfterRestore == recordsAfterRestoreExpected;
    }

    boolean restored() {
        return restoredCheckpointId != -1;
    }

    KeyGroupRange range() {
        return digests.range();
    }

    int keyGroup(long key) {
        return KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism);
    }

    /** The digests as recorded by the checkpoint this subtask restored ({@link #restored()} only). */
    KeyGroupDigests recordedAtRestore() throws Exception {
        return KeyGroupDigests.restored(digests.range(), recordedDigests.get());
    }

    /** The running digests (those the next checkpoint records). */
    KeyGroupDigests running() {
        return digests;
    }

    /** One record changed {@code key}'s value. */
    void recordProcessed(long key, boolean created, long oldDigest, long newDigest) {
        digests.update(keyGroup(key), created, oldDigest, newDigest);
        if (created) {
            keysCreated.add(1);
        }
        stateDigest.add(newDigest - oldDigest);
        recordsProcessed.add(1);
    }

    /** Called from the operator's {@code snapshotState}; also reports the plugin's metrics of this JVM. */
    void snapshot() throws Exception {
        recordedDigests.update(digests.entries());
        pluginMetrics.report();
    }

    /** Called from the operator's {@code close}: the plugin's metrics a last time. */
    void close() {
        if (pluginMetrics != null) {
            pluginMetrics.close();
        }
    }

    /**
     * Compares the state read back after the restore with what it should be, and counts a verified subtask.
     *
     * @throws IllegalStateException naming up to five key groups that differ (the task, and the job, fail)
     */
    void verify(KeyGroupDigests expected, KeyGroupDigests actual) {
        List<String> differences = expected.differences(actual);
        if (!differences.isEmpty()) {
            throw new IllegalStateException("State restored from checkpoint " + restoredCheckpointId
                    + " differs from what the job held at that checkpoint in " + differences.size()
                    + " key group(s): " + String.join("; ", differences.subList(0, Math.min(5, differences.size()))));
        }
        counter(JobAccumulators.RESTORE_VERIFIED_KEYS).add(actual.totalKeys());
        counter(JobAccumulators.RESTORED_STATE_DIGEST).add(actual.totalDigest());
        counter(JobAccumulators.RESTORE_VERIFIED_SUBTASKS).add(1);
    }

    private LongCounter counter(String name) {
        return runtimeContext.getLongCounter(name);
    }
}
