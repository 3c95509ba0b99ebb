package dev.flinks3.bench.checkpoint.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class JobParametersTest {

    private static JobParameters parse(String... args) {
        JobParameters parameters = new JobParameters();
        new CommandLine(parameters).parseArgs(args);
        return parameters;
    }

    @Test
    void readsEveryOptionByItsName() {
        JobParameters p = parse(
                "--numKeys",
                "10",
                "--valueSizeKb",
                "2",
                "--targetStateGb",
                "1",
                "--recordsPerSecond",
                "50",
                "--parallelism",
                "3",
                "--checkpointInterval",
                "2min",
                "--minPause",
                "500ms",
                "--checkpointTimeout",
                "30s",
                "--incremental",
                "--duration",
                "1h");

        assertThat(p.numKeys()).isEqualTo(10);
        assertThat(p.valueSizeBytes()).isEqualTo(2048);
        assertThat(p.recordsPerSecond()).isEqualTo(50);
        assertThat(p.parallelism()).isEqualTo(3);
        assertThat(p.checkpointInterval()).isEqualTo(Duration.ofMinutes(2));
        assertThat(p.minPause()).isEqualTo(Duration.ofMillis(500));
        assertThat(p.checkpointTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(p.incremental()).isTrue();
        assertThat(p.duration()).isEqualTo(Duration.ofHours(1));
        assertThat(p.totalRecords()).isEqualTo(180_000);
    }

    @Test
    void theTargetStateSizeCapsTheNumberOfKeys() {
        JobParameters p = parse("--numKeys", "100000", "--valueSizeKb", "1024", "--targetStateGb", "0.5");

        assertThat(p.keyCount()).isEqualTo(512);
        assertThat(p.expectedStateBytes()).isEqualTo(512L * 1024 * 1024);
    }

    @Test
    void fewerRecordsThanKeysLeaveKeysUnused() {
        JobParameters p = parse("--numKeys", "1000", "--recordsPerSecond", "10", "--duration", "5s");

        assertThat(p.expectedKeys()).isEqualTo(50);
    }

    @Test
    void argumentsReproduceTheParameters() {
        JobParameters p = parse("--numKeys", "10", "--incremental", "true", "--checkpointInterval", "3s");

        JobParameters again = parse(p.toArguments().toArray(String[]::new));

        assertThat(again.toArguments()).isEqualTo(p.toArguments());
        assertThat(again.incremental()).isTrue();
    }

    @Test
    void validationNamesTheParameterOutOfRange() {
        assertThatThrownBy(() -> parse("--recordsPerSecond", "0").validate())
                .hasMessageContaining("--records-per-second");
        assertThatThrownBy(() -> parse("--parallelism", "1000").validate()).hasMessageContaining("--parallelism");
        assertThatThrownBy(() -> parse("--minPause", "-1s").validate()).hasMessageContaining("--min-pause");
    }

    @Test
    void theStateBackendIsRocksDbUnlessForStIsAskedFor() {
        assertThat(parse().stateBackend()).isEqualTo(StateBackendKind.ROCKSDB);
        assertThat(parse().incrementalCheckpoints()).isFalse();

        JobParameters forSt = parse("--state-backend", "forst", "--forst-cache-size", "1g");

        assertThat(forSt.stateBackend()).isEqualTo(StateBackendKind.FORST);
        assertThat(forSt.forstCacheSizeBytes()).isEqualTo(1L << 30);
        assertThat(forSt.incrementalCheckpoints())
                .as("ForSt checkpoints are always incremental")
                .isTrue();
        assertThat(parse(forSt.toArguments().toArray(String[]::new)).stateBackend())
                .isEqualTo(StateBackendKind.FORST);
        assertThat(JobParameters.fromMap(forSt.toMap()).forstCacheSizeBytes()).isEqualTo(1L << 30);
    }

    @Test
    void rocksDbTransferThreadsReachTheJobsConfiguration() {
        assertThat(parse().rocksDbTransferThreads())
                .as("Flink's default")
                .isEqualTo(RocksDBOptions.CHECKPOINT_TRANSFER_THREAD_NUM.defaultValue());

        JobParameters eight = parse("--rocksdb-transfer-threads", "8");

        assertThat(JobParameters.fromMap(eight.toMap()).rocksDbTransferThreads())
                .isEqualTo(8);
        assertThat(LargeStateGeneratorJob.configuration(eight, "s3://bucket/checkpoints")
                        .get(RocksDBOptions.CHECKPOINT_TRANSFER_THREAD_NUM))
                .isEqualTo(8);
        assertThatThrownBy(() -> parse("--rocksdb-transfer-threads", "0").validate())
                .hasMessageContaining("--rocksdb-transfer-threads must be 1 to 64, was 0");
    }

    @Test
    void anUnknownStateBackendOrCacheSizeIsRefusedWithWhatIsAllowed() {
        assertThatThrownBy(() -> parse("--state-backend", "hashmap"))
                .hasMessageContaining("--state-backend must be one of rocksdb, forst, was 'hashmap'");
        assertThatThrownBy(() -> parse("--forst-cache-size", "lots").validate())
                .hasMessageContaining("--forst-cache-size");
    }
}
