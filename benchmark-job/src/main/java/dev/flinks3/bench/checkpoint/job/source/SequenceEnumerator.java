package dev.flinks3.bench.checkpoint.job.source;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Hands each reader the splits numbered like it ({@code splitIndex % parallelism == subtask}) as it
 * registers, and takes splits back from failed readers. Unless the source is to finish, it never
 * signals "no more splits": readers whose splits are exhausted stay idle and RUNNING, so the job keeps
 * taking checkpoints until the runner cancels it. Splits already in readers travel in the readers' own
 * state (Flink redistributes it when the parallelism changes); the enumerator's state is only the
 * splits not yet assigned.
 */
final class SequenceEnumerator implements SplitEnumerator<SequenceSplit, Collection<SequenceSplit>> {

    private final SplitEnumeratorContext<SequenceSplit> context;
    private final List<SequenceSplit> pending;
    private final boolean finish;

    /**
     * @param pending splits not yet assigned
     * @param finish whether readers are told there are no more splits once they have theirs
     */
    SequenceEnumerator(
            SplitEnumeratorContext<SequenceSplit> context, Collection<SequenceSplit> pending, boolean finish) {
        this.context = context;
        this.pending = new ArrayList<>(pending);
        this.finish = finish;
    }

    @Override
    public void start() {}

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {}

    @Override
    public void addSplitsBack(List<SequenceSplit> splits, int subtaskId) {
        pending.addAll(splits);
        if (context.registeredReaders().containsKey(subtaskId)) {
            addReader(subtaskId);
        }
    }

    @Override
    public void addReader(int subtaskId) {
        int parallelism = context.currentParallelism();
        Iterator<SequenceSplit> it = pending.iterator();
        while (it.hasNext()) {
            SequenceSplit split = it.next();
            if (split.splitIndex() % parallelism == subtaskId) {
                context.assignSplit(split, subtaskId);
                it.remove();
            }
        }
        if (finish) {
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public Collection<SequenceSplit> snapshotState(long checkpointId) {
        return new ArrayList<>(pending);
    }

    @Override
    public void close() {}
}
