package dev.flinks3.bench.checkpoint.job;

import java.util.BitSet;
import org.apache.flink.api.common.state.v2.ValueState;
import org.apache.flink.api.common.state.v2.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.runtime.asyncprocessing.operators.AbstractAsyncStateStreamOperator;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The job's accumulator on Flink's asynchronous state API (state V2), for ForSt with its SST files on
 * {@code s3://}: the same values, digests and checks as {@link StateAccumulatorOperator}, but each record
 * reads its key's value with {@code asyncValue()} and continues in the callback, so the task thread keeps
 * processing records of other keys while ForSt's I/O threads read from the filesystem. Flink runs the
 * callbacks of one key in record order, on the task thread.
 *
 * <p>After a restore it reads back every key of the subtask's key groups ({@code 0 .. keyCount-1}, the
 * generator's key space) with {@code asyncProcessWithKey}; each such read is ordered with the records of its
 * key, so the expected digest is the recorded one plus the changes of records processed before their key was
 * read back. A difference fails the task.
 *
 * <p>Emits the index of each processed record.
 */
public final class AsyncStateAccumulatorOperator extends AbstractAsyncStateStreamOperator<Long>
        implements OneInputStreamOperator<GeneratedRecord, Long> {

    private static final long serialVersionUID = 1L;

    private final RecordGenerator generator;
    private final long totalRecords;
    private final long recordsAfterRestore;

    private transient ValueState<byte[]> values;
    private transient StateLedger ledger;
    /** While the restored state is verified: recorded digests plus changes to keys not yet read back. */
    private transient KeyGroupDigests expected;

    private transient KeyGroupDigests actual;
    private transient BitSet keysReadBack;
    private transient long readsPending;
    private transient boolean readBackStarted;

    public AsyncStateAccumulatorOperator(RecordGenerator generator) {
        this(generator, 0, 0);
    }

    /**
     * @param totalRecords the records of the first run ({@code 0 .. totalRecords-1})
     * @param recordsAfterRestore records a restored job processes after them before it reads its state back
     */
    public AsyncStateAccumulatorOperator(RecordGenerator generator, long totalRecords, long recordsAfterRestore) {
        this.generator = generator;
        this.totalRecords = totalRecords;
        this.recordsAfterRestore = recordsAfterRestore;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        ledger = StateLedger.initialize(context, getRuntimeContext());
    }

    @Override
    public void open() throws Exception {
        super.open();
        values = getRuntimeContext()
                .getState(new ValueStateDescriptor<>("value", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        ledger.open();
        ledger.expectRecordsAfterRestore(generator, totalRecords, recordsAfterRestore);
        if (ledger.restored()) {
            expected = ledger.recordedAtRestore();
            actual = new KeyGroupDigests(ledger.range());
            keysReadBack = new BitSet(generator.keyCount());
        }
        if (ledger.restored() && !ledger.awaitsRecordsAfterRestore()) {
            getProcessingTimeService()
                    .registerTimer(
                            getProcessingTimeService().getCurrentProcessingTime(), time -> verifyRestoredState());
        }
    }

    @Override
    public void processElement(StreamRecord<GeneratedRecord> element) throws Exception {
        GeneratedRecord record = element.getValue();
        values.asyncValue().thenAccept(stored -> {
            boolean created = stored == null;
            byte[] value = created ? generator.initialValue(record.key) : stored;
            long oldDigest = created ? 0 : ValueDigest.of(record.key, value);
            RecordGenerator.apply(record, value);
            long newDigest = ValueDigest.of(record.key, value);
            values.asyncUpdate(value);
            ledger.recordProcessed(record.key, created, oldDigest, newDigest);
            if (expected != null && !keysReadBack.get((int) record.key)) {
                expected.update(ledger.keyGroup(record.key), created, oldDigest, newDigest);
            }
            if (ledger.recordAfterRestoreProcessed()) {
                getProcessingTimeService()
                        .registerTimer(
                                getProcessingTimeService().getCurrentProcessingTime(), time -> verifyRestoredState());
            }
            output.collect(new StreamRecord<>(record.index));
        });
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
        if (expected != null && !readBackStarted) {
            verifyRestoredState();
        }
        // Drains every state request still in flight, the read-backs included.
        super.finish();
    }

    private void verifyRestoredState() {
        if (readBackStarted) {
            return;
        }
        readBackStarted = true;
        readsPending = 1;
        for (long key = 0; key < generator.keyCount(); key++) {
            if (ledger.range().contains(ledger.keyGroup(key))) {
                long readKey = key;
                readsPending++;
                asyncProcessWithKey(
                        readKey,
                        () -> values.asyncValue().thenAccept(value -> {
                            keysReadBack.set((int) readKey);
                            if (value != null) {
                                actual.add(ledger.keyGroup(readKey), ValueDigest.of(readKey, value));
                            }
                            readBackDone();
                        }));
            }
        }
        readBackDone();
    }

    private void readBackDone() {
        if (--readsPending == 0) {
            ledger.verify(expected, actual);
            expected = null;
        }
    }
}
