package dev.flinks3.bench.checkpoint.job.source;

import dev.flinks3.bench.checkpoint.job.GeneratedRecord;
import dev.flinks3.bench.checkpoint.job.RecordGenerator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.core.io.InputStatus;

/**
 * Emits the records of its splits one per {@link #pollNext} call (the rate limiter wrapped around it
 * paces the calls). When its splits are exhausted it ends its input if the enumerator said no more
 * splits will come, and otherwise reports nothing available and stays idle until new splits arrive.
 * Runs on the task thread only.
 */
final class SequenceReader implements SourceReader<GeneratedRecord, SequenceSplit> {

    private final RecordGenerator generator;
    private final Deque<SequenceSplit> splits = new ArrayDeque<>();
    private CompletableFuture<Void> splitsArrived = new CompletableFuture<>();
    private boolean noMoreSplits;

    SequenceReader(RecordGenerator generator) {
        this.generator = generator;
    }

    @Override
    public void start() {}

    @Override
    public InputStatus pollNext(ReaderOutput<GeneratedRecord> output) {
        SequenceSplit split = splits.pollFirst();
        if (split == null) {
            return noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
        }
        output.collect(generator.record(split.next()));
        SequenceSplit advanced = split.advance();
        if (!advanced.isExhausted()) {
            splits.addFirst(advanced);
        }
        if (splits.isEmpty()) {
            return noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
        }
        return InputStatus.MORE_AVAILABLE;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (!splits.isEmpty() || noMoreSplits) {
            return CompletableFuture.completedFuture(null);
        }
        if (splitsArrived.isDone()) {
            splitsArrived = new CompletableFuture<>();
        }
        return splitsArrived;
    }

    @Override
    public void addSplits(List<SequenceSplit> newSplits) {
        newSplits.stream().filter(s -> !s.isExhausted()).forEach(splits::addLast);
        splitsArrived.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        splitsArrived.complete(null);
    }

    @Override
    public List<SequenceSplit> snapshotState(long checkpointId) {
        return new ArrayList<>(splits);
    }

    @Override
    public void close() {}
}
