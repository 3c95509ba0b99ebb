package dev.flinks3.bench.checkpoint.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link EmittedState} equals a plain replay of the records into one map, at any chunking of the key space. */
@Timeout(30)
class EmittedStateTest {

    @Test
    void equalsAReplayOfTheRecordsIntoAMap() {
        RecordGenerator generator = new RecordGenerator(50, 2048);
        EmittedState[] states = EmittedState.after(generator, 30, 400, 900);

        assertThat(states[0]).isEqualTo(replay(generator, 30));
        assertThat(states[0].keys()).isEqualTo(30);
        assertThat(states[1]).isEqualTo(replay(generator, 400));
        assertThat(states[2]).isEqualTo(replay(generator, 900));
        assertThat(states[2].keys()).isEqualTo(50);
        assertThat(states[2].digest()).isNotEqualTo(states[1].digest());
    }

    /** 64 KiB values: 1,000 keys span more than one chunk of 64 MiB. */
    @Test
    void chunksOfTheKeySpaceAddUpToTheWhole() {
        RecordGenerator generator = new RecordGenerator(1_100, 64 * 1024);
        assertThat(EmittedState.after(generator, 1_500)[0]).isEqualTo(replay(generator, 1_500));
    }

    @Test
    void rejectsCountsThatDoNotAscend() {
        assertThatThrownBy(() -> EmittedState.after(new RecordGenerator(10, 1024), 5, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("counts must ascend, were [5, 3]");
    }

    private static EmittedState replay(RecordGenerator generator, long records) {
        Map<Long, byte[]> values = new HashMap<>();
        for (long index = 0; index < records; index++) {
            GeneratedRecord record = generator.record(index);
            RecordGenerator.apply(record, values.computeIfAbsent(record.key, generator::initialValue));
        }
        long digest = 0;
        for (Map.Entry<Long, byte[]> entry : values.entrySet()) {
            digest += ValueDigest.of(entry.getKey(), entry.getValue());
        }
        return new EmittedState(values.size(), digest);
    }
}
