package dev.flinks3.bench.checkpoint.job.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.checkpoint.job.GeneratedRecord;
import dev.flinks3.bench.checkpoint.job.RecordGenerator;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.core.io.InputStatus;
import org.junit.jupiter.api.Test;

class SequenceSourceTest {

    private final RecordGenerator generator = new RecordGenerator(10, 1024);

    @Test
    void splitsInterleaveTheIndicesAcrossSubtasks() {
        List<SequenceSplit> splits = SequenceSplit.partition(7, 3);

        assertThat(splits)
                .containsExactly(
                        new SequenceSplit(0, 3, 0, 7), new SequenceSplit(1, 3, 1, 7), new SequenceSplit(2, 3, 2, 7));
        assertThat(indices(splits.get(0))).containsExactly(0L, 3L, 6L);
        assertThat(indices(splits.get(2))).containsExactly(2L, 5L);
    }

    @Test
    void serializersRoundTripSplitsAndPendingSplits() throws Exception {
        SequenceSplit split = new SequenceSplit(1, 4, 17, 1_000_000_000_000L);
        SequenceSplitSerializer splits = new SequenceSplitSerializer();
        PendingSplitsSerializer pending = new PendingSplitsSerializer();
        Collection<SequenceSplit> several = List.of(split, new SequenceSplit(0, 4, 0, 5));

        assertThat(splits.deserialize(splits.getVersion(), splits.serialize(split)))
                .isEqualTo(split);
        assertThat(pending.deserialize(pending.getVersion(), pending.serialize(several)))
                .isEqualTo(several);
    }

    @Test
    void theReaderEmitsItsSplitsThenIdlesWithoutFinishing() {
        SequenceReader reader = new SequenceReader(generator);
        List<GeneratedRecord> out = new ArrayList<>();
        reader.addSplits(List.of(new SequenceSplit(0, 2, 0, 5)));

        List<InputStatus> statuses = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            statuses.add(reader.pollNext(collect(out)));
        }

        assertThat(out).extracting(r -> r.index).containsExactly(0L, 2L, 4L);
        assertThat(statuses)
                .containsExactly(
                        InputStatus.MORE_AVAILABLE,
                        InputStatus.MORE_AVAILABLE,
                        InputStatus.NOTHING_AVAILABLE,
                        InputStatus.NOTHING_AVAILABLE);
        assertThat(reader.isAvailable()).as("idle, never END_OF_INPUT").isNotDone();
        assertThat(reader.snapshotState(1)).isEmpty();
    }

    @Test
    void aSnapshotHoldsThePositionAndAnotherReaderResumesFromIt() {
        SequenceReader first = new SequenceReader(generator);
        List<GeneratedRecord> out = new ArrayList<>();
        first.addSplits(List.of(new SequenceSplit(1, 2, 1, 8)));
        first.pollNext(collect(out));
        List<SequenceSplit> snapshot = first.snapshotState(7);

        SequenceReader second = new SequenceReader(generator);
        second.addSplits(snapshot);
        while (second.pollNext(collect(out)) == InputStatus.MORE_AVAILABLE) {
            // drain
        }

        assertThat(snapshot).containsExactly(new SequenceSplit(1, 2, 3, 8));
        assertThat(out).extracting(r -> r.index).containsExactly(1L, 3L, 5L, 7L);
    }

    @Test
    void toldThatNoMoreSplitsComeTheReaderEndsAfterItsLastRecord() {
        SequenceReader reader = new SequenceReader(generator);
        List<GeneratedRecord> out = new ArrayList<>();
        reader.addSplits(List.of(new SequenceSplit(0, 1, 0, 2)));
        reader.notifyNoMoreSplits();

        assertThat(reader.pollNext(collect(out))).isEqualTo(InputStatus.MORE_AVAILABLE);
        assertThat(reader.pollNext(collect(out))).isEqualTo(InputStatus.END_OF_INPUT);
        assertThat(reader.isAvailable()).isDone();
        assertThat(out).hasSize(2);
    }

    @Test
    void newSplitsWakeAnIdleReader() {
        SequenceReader reader = new SequenceReader(generator);
        var idle = reader.isAvailable();

        reader.addSplits(List.of(new SequenceSplit(0, 1, 0, 1)));

        assertThat(idle).isDone();
    }

    private static List<Long> indices(SequenceSplit split) {
        List<Long> indices = new ArrayList<>();
        for (SequenceSplit s = split; !s.isExhausted(); s = s.advance()) {
            indices.add(s.next());
        }
        return indices;
    }

    private static ReaderOutput<GeneratedRecord> collect(List<GeneratedRecord> out) {
        return new ReaderOutput<>() {
            @Override
            public void collect(GeneratedRecord record) {
                out.add(record);
            }

            @Override
            public void collect(GeneratedRecord record, long timestamp) {
                out.add(record);
            }

            @Override
            public void emitWatermark(Watermark watermark) {}

            @Override
            public void markIdle() {}

            @Override
            public void markActive() {}

            @Override
            public SourceOutput<GeneratedRecord> createOutputForSplit(String splitId) {
                return this;
            }

            @Override
            public void releaseOutputForSplit(String splitId) {}
        };
    }
}
