package dev.flinks3.bench.checkpoint.stats;

import static dev.flinks3.bench.checkpoint.stats.RestFixtures.ACCUMULATOR_VERTEX;
import static dev.flinks3.bench.checkpoint.stats.RestFixtures.SOURCE_VERTEX;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckpointStatsParserTest {

    @Test
    void readsTheHistoryByIdWithCompletedAndFailedCheckpoints() {
        List<CheckpointStats> history = CheckpointStatsParser.history(RestFixtures.json("checkpoints.json"));

        assertThat(history).extracting(CheckpointStats::id).containsExactly(1L, 2L, 3L, 4L, 5L);
        CheckpointStats fourth = history.get(3);
        assertThat(fourth.completed()).isTrue();
        assertThat(fourth.stateSizeBytes()).isEqualTo(94_400_618L);
        assertThat(fourth.checkpointedSizeBytes()).isEqualTo(94_400_618L);
        assertThat(fourth.endToEndDurationMs()).isEqualTo(3_511L);
        assertThat(fourth.triggerTimestamp()).isEqualTo(1_796_036_650_428L);
        assertThat(fourth.numSubtasks()).isEqualTo(4);
        assertThat(fourth.type()).isEqualTo("CHECKPOINT");
        assertThat(fourth.externalPath()).endsWith("/chk-4");
        assertThat(fourth.failureMessage()).isEmpty();
        CheckpointStats fifth = history.get(4);
        assertThat(fifth.status()).isEqualTo(CheckpointStats.FAILED);
        assertThat(fifth.terminal()).isTrue();
        assertThat(fifth.failureMessage()).isEqualTo("Checkpoint Coordinator is suspending.");
    }

    @Test
    void throughputIsCheckpointedMegabytesPerSecondOfEndToEndDuration() {
        CheckpointStats fourth = CheckpointStatsParser.history(RestFixtures.json("checkpoints.json"))
                .get(3);

        assertThat(fourth.throughputMbPerSecond())
                .isCloseTo(94.400618 / 3.511, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void readsPerVertexAndPerSubtaskDetailsWithVertexNames() {
        List<VertexCheckpointStats> vertices = CheckpointStatsParser.vertices(
                RestFixtures.json("checkpoint-4-details.json"),
                Map.of(ACCUMULATOR_VERTEX, RestFixtures.json("checkpoint-4-subtasks-" + ACCUMULATOR_VERTEX + ".json")),
                CheckpointStatsParser.vertexNames(RestFixtures.json("job.json")));

        assertThat(vertices)
                .extracting(VertexCheckpointStats::name)
                .containsExactlyInAnyOrder("Source: generator", "accumulator -> discard: Writer");
        VertexCheckpointStats accumulator = vertices.stream()
                .filter(v -> v.vertexId().equals(ACCUMULATOR_VERTEX))
                .findFirst()
                .orElseThrow();
        assertThat(accumulator.stateSizeBytes()).isEqualTo(94_400_150L);
        assertThat(accumulator.numSubtasks()).isEqualTo(2);
        assertThat(accumulator.subtasks())
                .extracting(SubtaskCheckpointStats::index)
                .containsExactly(0, 1);
        SubtaskCheckpointStats first = accumulator.subtasks().get(0);
        assertThat(first.stateSizeBytes()).isEqualTo(48_069_825L);
        assertThat(first.syncDurationMs()).isEqualTo(88);
        assertThat(first.asyncDurationMs()).isEqualTo(2_960);
        assertThat(first.alignmentDurationMs()).isEqualTo(5);
        assertThat(first.startDelayMs()).isEqualTo(4);
        VertexCheckpointStats source = vertices.stream()
                .filter(v -> v.vertexId().equals(SOURCE_VERTEX))
                .findFirst()
                .orElseThrow();
        assertThat(source.subtasks()).as("no subtask page fetched").isEmpty();
    }
}
