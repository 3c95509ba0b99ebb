package dev.flinks3.bench.fsbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.flinks3.bench.common.ServerTraffic;
import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import dev.flinks3.bench.fsbench.workloads.WorkloadSizes;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestSummary;
import dev.flinks3.testserver.RequestTotals;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class WorkloadResultTest {

    private static final ServerTraffic SERVER = new ServerTraffic(
            1_500_000_000L,
            new RequestSummary(Map.of(RequestKind.PUT_OBJECT, new RequestTotals(300, 6_000_000_000L, 0))));

    @Test
    void byteWorkloadsCountMegabytesPerSecond() {
        ClientMeasurement client =
                new ClientMeasurement(FsWorkload.STREAM_WRITE, 2.0, 100_000_000L, 1, 1.0, 1, 1, 0, "m", "");

        WorkloadResult result = WorkloadResult.of("ours", 1, client, SERVER, null, "");

        assertThat(result.throughput()).isCloseTo(50.0, within(1e-9));
        assertThat(result.serverCpuSeconds()).isCloseTo(1.5, within(1e-9));
        assertThat(result.requests()).isEqualTo(300);
        assertThat(result.failed()).isFalse();
    }

    @Test
    void operationWorkloadsCountOperationsPerSecond() {
        ClientMeasurement client =
                new ClientMeasurement(FsWorkload.SMALL_FILES, 20.0, 300L << 16, 300, 1.0, 1, 1, 0, "m", "");

        assertThat(WorkloadResult.of("ours", 1, client, SERVER, null, "").throughput())
                .isCloseTo(15.0, within(1e-9));
    }

    @Test
    void wrongBytesFailTheWorkloadAndZeroItsThroughput() {
        ClientMeasurement client =
                new ClientMeasurement(FsWorkload.SEQUENTIAL_READ, 1.0, 1_000_000L, 1, 1.0, 1, 1, 0, "m", "");

        WorkloadResult result = WorkloadResult.of("ours", 1, client, SERVER, null, "f: wrong byte at position 9");

        assertThat(result.failed()).isTrue();
        assertThat(result.failure()).isEqualTo("f: wrong byte at position 9");
        assertThat(result.throughput()).isZero();
    }

    @Test
    void sizesAreValidatedAndWarmUpIsSmaller() {
        WorkloadSizes defaults = WorkloadSizes.defaults();

        assertThat(defaults.streamBytes()).isEqualTo(512L << 20);
        assertThat(defaults.warmUp().streamBytes()).isLessThan(defaults.streamBytes());
        assertThat(defaults.warmUp().deleteObjects()).isLessThan(defaults.deleteObjects());
        // the JIT warm-up's readers together send 5,000 positional reads, whatever the measured count
        assertThat(defaults.jitWarmUp().positionalReads() * WorkloadSizes.JIT_WARM_UP_READERS)
                .isEqualTo(WorkloadSizes.JIT_WARM_UP_POSITIONAL_READS);
        assertThat(defaults.jitWarmUp().positionalReadBytes()).isEqualTo(defaults.positionalReadBytes());
        assertThat(defaults.jitWarmUp().streamBytes())
                .isEqualTo(defaults.warmUp().streamBytes());
        assertThatThrownBy(() -> new WorkloadSizes(0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("streamBytes");
    }

    @Test
    void protocolEventsSurviveTheirLine() {
        ClientMeasurement client = new ClientMeasurement(
                FsWorkload.RESTORE_DOWNLOAD, 1.5, 42, 16, 0.5, 1024, 512, 2048, "PathsCopyingFileSystem.copyFiles", "");
        ChildEvent event = new ChildEvent(ChildEvent.Type.MEASURED, FsWorkload.RESTORE_DOWNLOAD, client, "");

        String line = event.encode();

        assertThat(line).startsWith(ChildEvent.PREFIX).doesNotContain("\n");
        assertThat(ChildEvent.decode(line)).isEqualTo(event);
        assertThat(ChildEvent.decode("WARN something else")).isNull();
    }
}
