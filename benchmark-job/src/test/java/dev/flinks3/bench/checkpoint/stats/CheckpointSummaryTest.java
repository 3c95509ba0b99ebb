package dev.flinks3.bench.checkpoint.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class CheckpointSummaryTest {

    private final List<CheckpointStats> recorded = CheckpointStatsParser.history(RestFixtures.json("checkpoints.json"));

    @Test
    void countsCompletedAndFailedAndFindsTheLargestState() {
        CheckpointSummary summary = CheckpointSummary.of(recorded);

        assertThat(summary.completed()).isEqualTo(4);
        assertThat(summary.failed()).isEqualTo(1);
        assertThat(summary.maxStateBytes()).isEqualTo(94_400_618L);
    }

    @Test
    void distributionsCoverCompletedCheckpointsOnlyAndMatchFlinksMinMaxAvg() {
        CheckpointSummary summary = CheckpointSummary.of(recorded);
        var flink = RestFixtures.json("checkpoints.json").path("summary");

        assertThat(summary.durationMs().count()).isEqualTo(4);
        assertThat(summary.durationMs().min())
                .isEqualTo(flink.path("end_to_end_duration").path("min").asDouble());
        assertThat(summary.durationMs().max())
                .isEqualTo(flink.path("end_to_end_duration").path("max").asDouble());
        // Flink truncates its average to a whole number.
        assertThat(Math.floor(summary.durationMs().avg()))
                .isEqualTo(flink.path("end_to_end_duration").path("avg").asDouble());
        assertThat(summary.stateSizeBytes().min())
                .isEqualTo(flink.path("state_size").path("min").asDouble());
        assertThat(summary.stateSizeBytes().max())
                .isEqualTo(flink.path("state_size").path("max").asDouble());
    }

    @Test
    void averageThroughputIsAllCheckpointedBytesOverAllDurations() {
        CheckpointSummary summary = CheckpointSummary.of(recorded);
        double bytes = 15_359_950 + 62_132_549 + 81_729_299 + 94_400_618;
        double seconds = (4_764 + 1_990 + 1_525 + 3_511) / 1000.0;

        assertThat(summary.avgThroughputMbPerSecond()).isCloseTo(bytes / 1e6 / seconds, Offset.offset(1e-9));
    }

    @Test
    void groupsThroughputIntoEqualStateSizeRangesUpToTheMaximum() {
        List<SizeRangeRow> ranges = CheckpointSummary.of(recorded).bySizeRange();

        assertThat(ranges).hasSize(CheckpointSummary.RANGES);
        assertThat(ranges.get(0).lowerBytes()).isZero();
        assertThat(ranges.get(3).upperBytes()).isEqualTo(94_400_618L);
        // 15.4 MB falls in the first quarter, 62.1 MB in the third, 81.7 and 94.4 MB in the fourth.
        assertThat(ranges).extracting(SizeRangeRow::checkpoints).containsExactly(1, 0, 1, 2);
        assertThat(ranges.get(3).avgDurationMs()).isEqualTo((1_525 + 3_511) / 2.0);
        assertThat(ranges.get(3).throughputMbPerSecond())
                .isCloseTo((81_729_299 + 94_400_618) / 1e6 / 5.036, Offset.offset(1e-9));
        assertThat(ranges.get(1).throughputMbPerSecond()).isZero();
    }

    @Test
    void anEmptyRunHasNoRanges() {
        CheckpointSummary summary = CheckpointSummary.of(List.of());

        assertThat(summary.completed()).isZero();
        assertThat(summary.bySizeRange()).isEmpty();
        assertThat(summary.avgThroughputMbPerSecond()).isZero();
    }
}
