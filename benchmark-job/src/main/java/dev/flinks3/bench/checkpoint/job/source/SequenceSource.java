package dev.flinks3.bench.checkpoint.job.source;

import dev.flinks3.bench.checkpoint.job.GeneratedRecord;
import dev.flinks3.bench.checkpoint.job.RecordGenerator;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimitedSourceReader;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A rate-limited source of the records {@code 0 .. totalRecords-1} of a {@link RecordGenerator}.
 *
 * <p>With {@link AfterLastRecord#IDLE} (the benchmark runner's choice), unlike Flink's
 * {@code DataGeneratorSource}, it does not finish after the last record: its subtasks stay RUNNING and
 * idle, so checkpoints continue, the last checkpoint holds the effect of every record, and the runner
 * can cancel the job with that checkpoint retained and restore from it. With
 * {@link AfterLastRecord#FINISH} the source ends and the job finishes after Flink's final checkpoint,
 * as a job submitted on its own to a cluster should. The rate is Flink's
 * {@link RateLimiterStrategy#perSecond} split evenly over the subtasks.
 */
public final class SequenceSource implements Source<GeneratedRecord, SequenceSplit, Collection<SequenceSplit>> {

    private static final long serialVersionUID = 1L;

    private final RecordGenerator generator;
    private final long totalRecords;
    private final double recordsPerSecond;
    private final AfterLastRecord afterLastRecord;
    private final long recordsAfterRestore;

    /** What the source does once all its records are emitted. */
    public enum AfterLastRecord {
        /** Stay RUNNING without emitting, until cancelled. */
        IDLE,
        /** End the input, so the job finishes. */
        FINISH
    }

    /**
     * @param generator turns indices into records
     * @param totalRecords records to emit in all, positive
     * @param recordsPerSecond rate across all subtasks, positive
     * @param afterLastRecord whether the source idles or ends after the last record
     */
    public SequenceSource(
            RecordGenerator generator, long totalRecords, double recordsPerSecond, AfterLastRecord afterLastRecord) {
        this(generator, totalRecords, recordsPerSecond, afterLastRecord, 0);
    }

    /**
     * A source that, when its enumerator is restored from a checkpoint, also emits the records {@code
     * totalRecords .. totalRecords+recordsAfterRestore-1}: work for a restored job, to measure its rate after the
     * restore. The enumerator adds them once, when it is restored with no split that reaches past {@code
     * totalRecords} pending (the benchmark's restored job runs without restarts, so nothing restores it twice).
     *
     * @param recordsPerSecond rate across all subtasks, positive, or {@link Double#POSITIVE_INFINITY} for as fast
     *     as the job takes them
     * @param recordsAfterRestore records added after a restore, 0 or more
     */
    public SequenceSource(
            RecordGenerator generator,
            long totalRecords,
            double recordsPerSecond,
            AfterLastRecord afterLastRecord,
            long recordsAfterRestore) {
        if (totalRecords <= 0 || !(recordsPerSecond > 0)) {
            throw new IllegalArgumentException("totalRecords and recordsPerSecond must be positive, were "
                    + totalRecords + " and " + recordsPerSecond);
        }
        if (recordsAfterRestore < 0) {
            throw new IllegalArgumentException("recordsAfterRestore must be 0 or more, was " + recordsAfterRestore);
        }
        this.generator = generator;
        this.totalRecords = totalRecords;
        this.recordsPerSecond = recordsPerSecond;
        this.afterLastRecord = afterLastRecord;
        this.recordsAfterRestore = recordsAfterRestore;
    }

    @Override
    public Boundedness getBoundedness() {
        return afterLastRecord == AfterLastRecord.FINISH ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SourceReader<GeneratedRecord, SequenceSplit> createReader(SourceReaderContext context) {
        return new RateLimitedSourceReader<>(new SequenceReader(generator), rateLimiter(context.currentParallelism()));
    }

    @SuppressWarnings("unchecked") // Flink's perSecond() returns a raw strategy.
    private RateLimiter<SequenceSplit> rateLimiter(int parallelism) {
        RateLimiterStrategy<SequenceSplit> strategy = Double.isInfinite(recordsPerSecond)
                ? RateLimiterStrategy.noOp()
                : RateLimiterStrategy.perSecond(recordsPerSecond);
        return strategy.createRateLimiter(parallelism);
    }

    @Override
    public SplitEnumerator<SequenceSplit, Collection<SequenceSplit>> createEnumerator(
            SplitEnumeratorContext<SequenceSplit> context) {
        return new SequenceEnumerator(
                context,
                SequenceSplit.partition(totalRecords, context.currentParallelism()),
                afterLastRecord == AfterLastRecord.FINISH);
    }

    @Override
    public SplitEnumerator<SequenceSplit, Collection<SequenceSplit>> restoreEnumerator(
            SplitEnumeratorContext<SequenceSplit> context, Collection<SequenceSplit> pending) {
        List<SequenceSplit> splits = new ArrayList<>(pending);
        if (recordsAfterRestore > 0 && splits.stream().noneMatch(split -> split.end() > totalRecords)) {
            for (SequenceSplit split :
                    SequenceSplit.partition(totalRecords + recordsAfterRestore, context.currentParallelism())) {
                splits.add(new SequenceSplit(
                        split.splitIndex(), split.stride(), totalRecords + split.splitIndex(), split.end()));
            }
        }
        return new SequenceEnumerator(context, splits, afterLastRecord == AfterLastRecord.FINISH);
    }

    @Override
    public SimpleVersionedSerializer<SequenceSplit> getSplitSerializer() {
        return new SequenceSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Collection<SequenceSplit>> getEnumeratorCheckpointSerializer() {
        return new PendingSplitsSerializer();
    }
}
