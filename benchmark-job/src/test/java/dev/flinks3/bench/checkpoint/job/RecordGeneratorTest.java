package dev.flinks3.bench.checkpoint.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RecordGeneratorTest {

    private final RecordGenerator generator = new RecordGenerator(100, 4096);

    @Test
    void theFirstRecordsIntroduceOneNewKeyEachThenUpdateExistingKeys() {
        for (long i = 0; i < 100; i++) {
            assertThat(generator.record(i).key).isEqualTo(i);
        }
        for (long i = 100; i < 10_000; i++) {
            assertThat(generator.record(i).key).isBetween(0L, 99L);
        }
    }

    @Test
    void recordsAndInitialValuesAreTheSameOnEveryCall() {
        assertThat(generator.record(12_345)).isEqualTo(new RecordGenerator(100, 4096).record(12_345));
        assertThat(generator.initialValue(7)).isEqualTo(new RecordGenerator(100, 4096).initialValue(7));
        assertThat(generator.record(1).payload).isNotEqualTo(generator.record(2).payload);
    }

    @Test
    void payloadsStayInsideTheValue() {
        for (long i = 0; i < 5_000; i++) {
            GeneratedRecord record = generator.record(i);
            assertThat(record.payload).hasSize(RecordGenerator.MAX_PAYLOAD_BYTES);
            assertThat(record.offset).isBetween(0, 4096 - RecordGenerator.MAX_PAYLOAD_BYTES);
        }
        assertThat(new RecordGenerator(1, 100).record(5).payload)
                .as("payload capped at the value size")
                .hasSize(100);
    }

    @Test
    void theFinalStateDoesNotDependOnTheOrderRecordsArriveIn() {
        List<Long> indices = new ArrayList<>();
        for (long i = 0; i < 2_000; i++) {
            indices.add(i);
        }
        Map<Long, byte[]> inOrder = apply(indices);
        Collections.shuffle(indices, new Random(42));

        Map<Long, byte[]> shuffled = apply(indices);

        assertThat(shuffled.keySet()).isEqualTo(inOrder.keySet());
        inOrder.forEach(
                (key, value) -> assertThat(shuffled.get(key)).as("key %d", key).isEqualTo(value));
    }

    @Test
    void applyRejectsAPayloadOutsideTheValue() {
        GeneratedRecord record = new GeneratedRecord(0, 0, new byte[10], 95);

        assertThatThrownBy(() -> RecordGenerator.apply(record, new byte[100]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("record 0");
    }

    private Map<Long, byte[]> apply(List<Long> indices) {
        Map<Long, byte[]> state = new HashMap<>();
        for (long index : indices) {
            GeneratedRecord record = generator.record(index);
            byte[] value = state.computeIfAbsent(record.key, generator::initialValue);
            RecordGenerator.apply(record, value);
        }
        return state;
    }
}
