package dev.flinks3.bench.job;

import java.util.List;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The stateful heart of the job: one {@code ValueState<byte[]>} per key, created with pseudo-random
 * bytes when the key is first seen and partially overwritten by every record.
 *
 * <p>It keeps a running digest per key group ({@link KeyGroupDigests}) and writes it to union
 * operator state at every checkpoint, inside the same snapshot as the keyed state. After a restore
 * (at any parallelism) it reads every restored value back once the task runs and compares the
 * digests with what was recorded; a difference fails the task with the key groups that differ.
 * Verification runs as the first mail after the task switched to RUNNING, so it does not count
 * into the restore time; records that arrive first are folded into the running digest, which keeps
 * the comparison exact.
 *
 * <p>Emits the index of each processed record.
 */
public final class StateAccumulatorOperator extends AbstractStreamOperator<Long>
        implements OneInputStreamOperator<GeneratedRecord, Long> {

    private static final long serialVersionUID = 1L;

    private final RecordGenerator generator;

    private transient ValueStateDescriptor<byte[]> valueDescriptor;
    private transient ValueState<byte[]> values;
    private transient ListState<KeyGroupDigest> recordedDigests;
    private transient KeyGroupDigests digests;
    private transient long restoredCheckpointId;
    private transient int maxParallelism;
    private transient LongCounter recordsProcessed;
    private transient LongCounter keysCreated;
    private transient LongCounter stateDigest;

    public StateAccumulatorOperator(RecordGenerator generator) {
        this.generator = generator;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        valueDescriptor = new ValueStateDescriptor<>("value", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
        values = context.getKeyedStateStore().getState(valueDescriptor);
        recordedDigests = context.getOperatorStateStore().getUnionListState(
                new ListStateDescriptor<>("keyGroupDigests", TypeInformation.of(KeyGroupDigest.class)));
        maxParallelism = getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
        KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(maxParallelism,
                getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
        if (context.isRestored()) {
            restoredCheckpointId = context.getRestoredCheckpointId().orElse(-1);
            digests = KeyGroupDigests.restored(range, recordedDigests.get());
        } else {
            restoredCheckpointId = -1;
            digests = new KeyGroupDigests(range);
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        recordsProcessed = counter(JobAccumulators.RECORDS_PROCESSED);
        keysCreated = counter(JobAccumulators.KEYS_CREATED);
        stateDigest = counter(JobAccumulators.STATE_DIGEST);
        if (restoredCheckpointId != -1) {
            stateDigest.add(digests.totalDigest());
            getProcessingTimeService().registerTimer(
                    getProcessingTimeService().getCurrentProcessingTime(), time -> verifyRestoredState());
        }
    }

    @Override
    public void processElement(StreamRecord<GeneratedRecord> element) throws Exception {
        GeneratedRecord record = element.getValue();
        byte[] value = values.value();
        boolean created = value == null;
        long oldDigest = 0;
        if (created) {
            value = generator.initialValue(record.key);
            keysCreated.add(1);
        } else {
            oldDigest = ValueDigest.of(record.key, value);
        }
        RecordGenerator.apply(record, value);
        long newDigest = ValueDigest.of(record.key, value);
        values.update(value);
        digests.update(KeyGroupRangeAssignment.assignToKeyGroup(record.key, maxParallelism), created, oldDigest, newDigest);
        stateDigest.add(newDigest - oldDigest);
        recordsProcessed.add(1);
        output.collect(element.replace(record.index));
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        recordedDigests.update(digests.entries());
    }

    private void verifyRestoredState() throws Exception {
        KeyGroupDigests actual = new KeyGroupDigests(digests.range());
        getKeyedStateBackend().<VoidNamespace, ValueState<byte[]>, byte[]>applyToAllKeys(
                VoidNamespace.INSTANCE, VoidNamespaceSerializer.INSTANCE, valueDescriptor,
                (key, state) -> actual.add(
                        KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism),
                        ValueDigest.of((Long) key, state.value())));
        List<String> differences = digests.differences(actual);
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
        return getRuntimeContext().getLongCounter(name);
    }
}
