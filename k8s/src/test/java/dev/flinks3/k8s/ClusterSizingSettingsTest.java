package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flinks3.bench.checkpoint.job.JobParameters;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;

/**
 * The cluster sizing and job settings each overlay renders: JobManager 2 GB / 1 CPU, two TaskManagers
 * of 6 GB / 1.5 CPU with 4 slots, parallelism 8, checkpoints every 60 s with 30 s pause and a
 * 10 min timeout, exactly-once, one at a time, RocksDB with managed memory and full checkpoints to
 * s3://, and the job's arguments: 20 million keys of 1 KB at 50,000 records/s.
 */
class ClusterSizingSettingsTest {

    private static final long GIB = 1L << 30;

    @ParameterizedTest
    @EnumSource(Variant.class)
    void jobManagerHas2GibAndOneCpu(Variant variant) {
        JsonNode resource =
                Variant.spec(variant.flinkDeployment()).path("jobManager").path("resource");

        assertThat(MemorySize.parse(resource.path("memory").asText()).getBytes())
                .isEqualTo(2 * GIB);
        assertThat(resource.path("cpu").asDouble()).isEqualTo(1.0);
        assertThat(Variant.spec(variant.flinkDeployment())
                        .path("jobManager")
                        .path("replicas")
                        .asInt())
                .isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void twoTaskManagersOf6GibAndOneAndAHalfCpuWithFourSlots(Variant variant) {
        JsonNode taskManager = Variant.spec(variant.flinkDeployment()).path("taskManager");

        assertThat(taskManager.path("replicas").asInt()).isEqualTo(2);
        assertThat(MemorySize.parse(taskManager.path("resource").path("memory").asText())
                        .getBytes())
                .isEqualTo(6 * GIB);
        assertThat(taskManager.path("resource").path("cpu").asDouble()).isEqualTo(1.5);
        assertThat(variant.flinkConfiguration()).containsEntry("taskmanager.numberOfTaskSlots", "4");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void parallelismFillsEverySlotAndMatchesTheJobArgument(Variant variant) {
        JsonNode spec = Variant.spec(variant.flinkDeployment());
        int slots = Integer.parseInt(variant.flinkConfiguration().get("taskmanager.numberOfTaskSlots"));
        JobParameters parameters = JobArguments.parse(JobArguments.of(variant));

        assertThat(spec.path("job").path("parallelism").asInt())
                .isEqualTo(8)
                .isEqualTo(spec.path("taskManager").path("replicas").asInt() * slots)
                .isEqualTo(parameters.parallelism());
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void checkpointsExactlyOnceOneAtATimeEveryMinuteWithHalfAMinutePauseAndTenMinuteTimeout(Variant variant) {
        Map<String, String> configuration = variant.flinkConfiguration();

        assertThat(duration(configuration, "execution.checkpointing.interval")).isEqualTo(Duration.ofSeconds(60));
        assertThat(duration(configuration, "execution.checkpointing.min-pause")).isEqualTo(Duration.ofSeconds(30));
        assertThat(duration(configuration, "execution.checkpointing.timeout")).isEqualTo(Duration.ofMinutes(10));
        assertThat(configuration)
                .containsEntry("execution.checkpointing.mode", "EXACTLY_ONCE")
                .containsEntry("execution.checkpointing.max-concurrent-checkpoints", "1");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void rocksDbWithManagedMemoryAndFullCheckpointsToS3(Variant variant) {
        Map<String, String> configuration = variant.flinkConfiguration();

        assertThat(configuration)
                .containsEntry("state.backend.type", "rocksdb")
                .containsEntry("state.backend.rocksdb.memory.managed", "true")
                .containsEntry("execution.checkpointing.incremental", "false")
                .containsEntry("execution.checkpointing.storage", "filesystem");
        assertThat(configuration.get("execution.checkpointing.dir"))
                .matches("s3://[a-z0-9.-]+/" + variant.deploymentName + "/checkpoints");
        assertThat(configuration.get("execution.checkpointing.savepoint-dir"))
                .matches("s3://[a-z0-9.-]+/" + variant.deploymentName + "/savepoints");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void jobArgumentsAre20MillionKeysOf1KibAt50kRecordsPerSecond(Variant variant) {
        JobParameters parameters = JobArguments.parse(JobArguments.of(variant));

        assertThat(parameters.numKeys()).isEqualTo(20_000_000);
        assertThat(parameters.keyCount())
                .as("--targetStateGb must not cap the keys")
                .isEqualTo(20_000_000);
        assertThat(parameters.valueSizeKb()).isEqualTo(1);
        assertThat(parameters.recordsPerSecond()).isEqualTo(50_000.0);
        assertThat(parameters.totalRecords())
                .as("every key is written at least once")
                .isGreaterThanOrEqualTo(parameters.numKeys());
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void jobArgumentsCheckpointAsTheClusterConfigurationSays(Variant variant) {
        JobParameters parameters = JobArguments.parse(JobArguments.of(variant));
        Map<String, String> configuration = variant.flinkConfiguration();

        assertThat(parameters.checkpointInterval())
                .isEqualTo(duration(configuration, "execution.checkpointing.interval"));
        assertThat(parameters.minPause()).isEqualTo(duration(configuration, "execution.checkpointing.min-pause"));
        assertThat(parameters.checkpointTimeout())
                .isEqualTo(duration(configuration, "execution.checkpointing.timeout"));
        assertThat(parameters.incremental())
                .isEqualTo(Boolean.parseBoolean(configuration.get("execution.checkpointing.incremental")));
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void theJobsParserRejectsAnArgumentItDoesNotKnow(Variant variant) {
        List<String> args = new java.util.ArrayList<>(JobArguments.of(variant));
        args.add("--numKey");
        args.add("1");

        assertThatThrownBy(() -> JobArguments.parse(args)).isInstanceOf(CommandLine.ParameterException.class);
    }

    private static Duration duration(Map<String, String> configuration, String key) {
        return TimeUtils.parseDuration(configuration.get(key));
    }
}
