package dev.flinks3.bench.checkpoint.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.flinks3.testserver.NetworkProfile;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link CheckpointModel}'s bounds on figures worked out by hand. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CheckpointModelTest {

    /**
     * 10 checkpoints at parallelism 2 with 4 transfer threads: 100 requests, 500 MB, 10 PutObjects, 10 multipart
     * uploads, 20 lookups, 2 s synchronous of 12 s end to end.
     */
    static CheckpointWork work(double writeRequests) {
        return new CheckpointWork("ours", 1, 10, 500e6, 100, 10, 10, 20, writeRequests, 2, 4, 2, 12);
    }

    @Test
    void calibratesTheRequestsInFlightByLittlesLaw() {
        // 100 requests * 20 ms + 500 MB at 50 MB/s = 12 s of requests in 12 - 2 = 10 s of uploads.
        assertThat(CheckpointModel.concurrency(work(60), StoreProperties.of(NetworkProfile.WAN)))
                .isCloseTo(1.2, within(1e-9));
    }

    @Test
    void theCalibratedConcurrencyPredictsTheCalibrationRunBack() {
        CheckpointModel.Prediction prediction =
                CheckpointModel.predict(work(60), StoreProperties.of(NetworkProfile.WAN), 1.2);

        assertThat(prediction.concurrencySeconds()).isCloseTo(10, within(1e-9));
        // Per subtask and checkpoint one file after the metadata stream (1 wave), 2 round trips per file, 1
        // lookup: 10 * (1 + 2 + 1) * 20 ms, and 250 MB per subtask at one connection's 50 MB/s.
        assertThat(prediction.dependentSeconds()).isCloseTo(0.8 + 5, within(1e-9));
        assertThat(prediction.aggregateSeconds()).isZero();
        assertThat(prediction.requestRateSeconds()).isZero();
        assertThat(prediction.seconds()).isCloseTo(12, within(1e-9));
        assertThat(prediction.decidingBound()).isEqualTo("concurrency");
    }

    @Test
    void onAHighLatencySharedLinkTheChainsOfRoundTripsDecide() {
        CheckpointModel.Prediction prediction =
                CheckpointModel.predict(work(60), StoreProperties.of(NetworkProfile.RESCALE), 1.2);

        // 100 * 80 ms / 1.2; the chains: 10 * 4 * 80 ms, and 250 MB per subtask at half of 125 MB/s.
        assertThat(prediction.concurrencySeconds()).isCloseTo(8 / 1.2, within(1e-9));
        assertThat(prediction.dependentSeconds()).isCloseTo(3.2 + 4, within(1e-9));
        assertThat(prediction.aggregateSeconds()).isCloseTo(4, within(1e-9));
        assertThat(prediction.seconds()).isCloseTo(2 + 7.2, within(1e-9));
        assertThat(prediction.decidingBound()).isEqualTo("dependent requests");
    }

    @Test
    void theStoresWriteLimitPerPrefixBoundsManySmallWrites() {
        StoreProperties store = new StoreProperties("s3", 0.001, 0, 0, 3500);

        CheckpointModel.Prediction prediction = CheckpointModel.predict(work(35_000), store, 1.2);

        assertThat(prediction.requestRateSeconds()).isCloseTo(10, within(1e-9));
        assertThat(prediction.decidingBound()).isEqualTo("request rate");
    }

    @Test
    void aStoreWithoutLatencyOrLimitsCannotCalibrate() {
        assertThatThrownBy(() -> CheckpointModel.concurrency(work(60), StoreProperties.of(NetworkProfile.LAN)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lan");
    }

    @Test
    void aScaledCheckpointKeepsTheRequestsPerByteAndSharesTheSnapshotAmongTheSubtasks() {
        // The average checkpoint is 50 MB with 10 requests (1 multipart upload, 6 writes) and 0.2 s synchronous;
        // 1 GB is 20 times it, at 4 times the parallelism.
        CheckpointWork one = work(60).scaledTo(1e9, 8);

        assertThat(one.checkpoints()).isEqualTo(1);
        assertThat(one.requests()).isCloseTo(200, within(1e-9));
        assertThat(one.multipartUploads()).isCloseTo(20, within(1e-9));
        assertThat(one.writeRequests()).isCloseTo(120, within(1e-9));
        assertThat(one.syncSeconds()).isCloseTo(0.2 * 20 / 4, within(1e-9));
        assertThat(one.parallelism()).isEqualTo(8);
    }

    @Test
    void negativeStoreFiguresAreRefusedByName() {
        assertThatThrownBy(() -> new StoreProperties("s3", -1, 0, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("latencySeconds");
    }
}
