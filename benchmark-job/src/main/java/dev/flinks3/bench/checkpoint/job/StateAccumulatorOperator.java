package dev.flinks3.bench.checkpoint.job;

import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The stateful heart of the job on the synchronous state API (RocksDB): one {@code ValueState<byte[]>} per
 * key, created with pseudo-random bytes when the key is first seen and partially overwritten by every record.
 *
 * <p>It keeps a running digest per key group ({@link StateLedger}) and writes it to union operator state at
 * every checkpoint, inside the same snapshot as the keyed state. After a restore (at any parallelism) it
 * reads every restored value back once the task runs and compares the digests with what was recorded; a
 * difference fails the task with the key groups that differ. Verification runs as the first mail after the
 * task switched to RUNNING, so it does not count into the restore time; records that arrive first are
 * folded into the running digest, which keeps the comparison exact.
 *
 * <p>Emits the index of each processed record.
 */
public final class StateAccumulatorOperator extends AbstractStreamOperator<Long>
        implements OneInputStreamOperator<GeneratedRecord, Long> {

    private static final long serialVersionUID = 1L;

    private final RecordGenerator generator;
    private final long totalRecords;
    private final long recordsAfterRestore;

    private transient ValueStateDescriptor<byte[]> valueDescriptor;
    private transient ValueState<byte[]> values;
    private transient StateLedger ledger;
    private transient boolean verified;

    public StateAccumulatorOperator(RecordGenerator generator) {
        this(generator, 0, 0);
    }

    /**
     * @param totalRecords the records of the first run ({@code 0 .. totalRecords-1})
     * @param recordsAfterRestore records a restored job processes after them before it verifies its state
     */
    public StateAccumulatorOperator(RecordGenerator generator, long totalRecords, long recordsAfterRestore) {
        this.generator = generator;
        this.totalRecords = totalRecords;
        this.recordsAfterRestore = recordsAfterRestore;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        valueDescriptor = new ValueStateDescriptor<>("value", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
        values = context.getKeyedStateStore().getState(valueDescriptor);
        ledger = StateLedger.initialize(context, getRuntimeContext());
    }

    @Override
    public void open() throws Exception {
        super.open();
        ledger.open();
        ledger.expectRecordsAfterRestore(generator, totalRecords, recordsAfterRestore);
        if (ledger.restored() && !ledger.awaitsRecordsAfterRestore()) {
            getProcessingTimeService()
                    .registerTimer(
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
        } else {
            oldDigest = ValueDigest.of(record.key, value);
        }
        RecordGenerator.apply(record, value);
        long newDigest = ValueDigest.of(record.key, value);
        values.update(value);
        ledger.recordProcessed(record.key, created, oldDigest, newDigest);
        if (ledger.recordAfterRestoreProcessed()) {
            getProcessingTimeService()
                    .registerTimer(
                            getProcessingTimeService().getCurrentProcessingTime(), time -> verifyRestoredState());
        }
        output.collect(element.replace(record.index));
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        ledger.snapshot();
    }

    @Override
    public void close() throws Exception {
        try {
            // Null when initializeState failed (a restore that could not read its state): closing must not throw
            // then, or Flink treats the failure in its failure handling as fatal and stops the TaskManager.
            if (ledger != null) {
                ledger.close();
            }
        } finally {
            super.close();
        }
    }

    /** A restored job whose input ends before the verification's timer fired verifies here, before it finishes. */
    @Override
    public void finish() throws Exception {
        if (ledger.restored()) {
            verifyRestoredState();
        }
        super.finish();
    }

    private void verifyRestoredState() throws Exception {
        if (verified) {
            return;
        }
        verified = true;
        KeyGroupDigests actual = new KeyGroupDigests(ledger.range());
        getKeyedStateBackend()
                .<VoidNamespace, ValueState<byte[]>, byte[]>applyToAllKeys(
                        VoidNamespace.INSTANCE,
                        VoidNamespaceSerializer.INSTANCE,
                        valueDescriptor,
                        (key, state) ->
                                actual.add(ledger.keyGroup((Long) key), ValueDigest.of((Long) key, state.value())));
        ledger.verify(ledger.running(), actual);
    }
}
