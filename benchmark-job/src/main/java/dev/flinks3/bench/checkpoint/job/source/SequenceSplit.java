package dev.flinks3.bench.checkpoint.job.source;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * Every {@code stride}-th record index from {@code next} up to {@code end} (exclusive). Splitting the
 * sequence by stride rather than by block keeps the global index order close to emission order
 * across subtasks, so the state grows steadily rather than one subtask's keys first. Immutable.
 */
public final class SequenceSplit implements SourceSplit {

    private final int splitIndex;
    private final int stride;
    private final long next;
    private final long end;

    /**
     * @param splitIndex the split's number, 0 .. stride-1
     * @param stride distance between consecutive indices, positive
     * @param next the next index to emit
     * @param end the first index not emitted
     */
    public SequenceSplit(int splitIndex, int stride, long next, long end) {
        if (stride <= 0 || splitIndex < 0 || next < 0) {
            throw new IllegalArgumentException("invalid split " + splitIndex + "/" + stride + " at " + next);
        }
        this.splitIndex = splitIndex;
        this.stride = stride;
        this.next = next;
        this.end = end;
    }

    /** Splits {@code 0 .. totalRecords-1} into {@code parallelism} interleaved splits. */
    public static List<SequenceSplit> partition(long totalRecords, int parallelism) {
        List<SequenceSplit> splits = new ArrayList<>(parallelism);
        for (int i = 0; i < parallelism; i++) {
            splits.add(new SequenceSplit(i, parallelism, i, totalRecords));
        }
        return splits;
    }

    @Override
    public String splitId() {
        return Integer.toString(splitIndex);
    }

    public int splitIndex() {
        return splitIndex;
    }

    public int stride() {
        return stride;
    }

    public long next() {
        return next;
    }

    public long end() {
        return end;
    }

    /** Whether no index is left. */
    public boolean isExhausted() {
        return next >= end;
    }

    /** The same split after emitting {@link #next()}. */
    public SequenceSplit advance() {
        return new SequenceSplit(splitIndex, stride, next + stride, end);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SequenceSplit)) {
            return false;
        }
        SequenceSplit other = (SequenceSplit) o;
        return splitIndex == other.splitIndex && stride == other.stride && next == other.next && end == other.end;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(next) * 31 + splitIndex;
    }

    @Override
    public String toString() {
        return "SequenceSplit{" + splitIndex + "/" + stride + ", next=" + next + ", end=" + end + "}";
    }
}
