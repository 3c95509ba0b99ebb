package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestLog;
import dev.flinks3.testserver.RequestRecord;
import dev.flinks3.writer.TailObjects;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.SimpleVersionedStringSerializer;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.DefaultRollingPolicy;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Exactly-once {@code FileSink} on {@code s3://} under failover (issue 3): a bounded source of numbered
 * records, a row-format {@code FileSink} writing into two directories, checkpoints to {@code s3://}
 * every 300 ms, and a task failure injected {@value #FAILURES} times at random record counts (see
 * {@link FailingOnceAtRecordCount} for where in the checkpoint cycle). Part files roll at 12 MiB and
 * S3 parts are 5 MiB, so in-progress files span many checkpoints and failures, and recoveries resume
 * uploads with parts and take tails back (both asserted from the server's request log).
 *
 * <p>Afterwards, checked through a plain SDK client: every record is in exactly one committed file,
 * nothing but committed part files is under the output prefix (no tail object, nothing in progress or
 * pending), and no multipart upload is left under the run's prefix. Where the test sees the server's
 * request log (the embedded S3Proxy), it also asserts that recoveries resumed uploads with parts and took
 * tails back; subclasses name the server.
 *
 * <p>Our filesystem is registered through Flink's service loader on the test classpath ({@link
 * FileSystem#initialize} without a plugin manager), as the contract suites do; loading the shaded jar
 * from a plugins folder is {@link PluginLoadingTest}'s job.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
abstract class AbstractFileSinkFailoverTest {

    private static final int FAILURES = 4;
    private static final long RECORDS = 60_000;
    private static final int RECORDS_PER_SECOND = 3_000;
    private static final int PARALLELISM = 2;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(PARALLELISM)
                    .build());

    private S3TestTarget target;
    private S3Client s3;
    private final String run = "filesink-failover-" + UUID.randomUUID();

    /** The server and bucket; may skip the test class with an assumption. */
    protected abstract S3TestTarget target();

    /** The server's log of the requests it received, where the test can see it. */
    protected Optional<RequestLog> requestLog() {
        return Optional.empty();
    }

    /** Options besides the target's and the small part size, e.g. another S3 client. */
    protected Map<String, String> extraConfiguration() {
        return Map.of();
    }

    @BeforeAll
    void registerOurFileSystem() throws Exception {
        target = target();
        s3 = target.sdkClient();
        Map<String, String> options = new HashMap<>(extraConfiguration());
        options.put("s3.upload.min.part.size", "5mb");
        FileSystem.initialize(target.flinkConfiguration(options), null);
    }

    @AfterAll
    void closeClient() {
        s3.close();
    }

    @Test
    void everyRecordIsCommittedExactlyOnceAndNothingIsLeftBehind() throws Exception {
        Path output = new Path("s3://" + target.bucket() + "/" + run + "/out");
        assertThat(output.getFileSystem().getClass().getName()).isEqualTo("dev.flinks3.fs.PathsCopyingS3FileSystem");
        FailingOnceAtRecordCount.reset();
        int requestsBefore = requestLog().map(log -> log.entries().size()).orElse(0);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(jobConfiguration());
        env.setParallelism(PARALLELISM);
        env.fromSource(
                        new DataGeneratorSource<>(
                                n -> n, RECORDS, RateLimiterStrategy.perSecond(RECORDS_PER_SECOND), Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "numbered records")
                .map(new FailingOnceAtRecordCount(FAILURES, 3_000, 9_000))
                .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<String>())
                        .withBucketAssigner(new ParityBuckets())
                        .withRollingPolicy(DefaultRollingPolicy.builder()
                                .withMaxPartSize(MemorySize.ofMebiBytes(12))
                                .withRolloverInterval(Duration.ofMinutes(5))
                                .withInactivityInterval(Duration.ofMinutes(5))
                                .build())
                        .build());
        env.execute("FileSink exactly-once under failover on s3://");

        assertThat(FailingOnceAtRecordCount.FAILURES_THROWN).hasValue(FAILURES);
        if (requestLog().isPresent()) {
            List<RequestRecord> sinkRequests = requestLog().get().entries().stream()
                    .skip(requestsBefore)
                    .filter(request -> request.key() != null && request.key().startsWith(run + "/out/"))
                    .toList();
            assertThat(sinkRequests)
                    .as("a recovery resumed an upload with parts")
                    .anyMatch(request -> request.kind() == RequestKind.LIST_PARTS);
            assertThat(sinkRequests)
                    .as("a recovery took a tail back")
                    .anyMatch(request -> request.kind() == RequestKind.GET_OBJECT && isTail(request.key()));
        }
        List<S3Object> objects = objectsUnder(run + "/out/");
        assertThat(objects)
                .extracting(S3Object::key)
                .allSatisfy(key -> assertThat(key).matches(run + "/out/(even|odd)/part-[^/]+"))
                .noneMatch(AbstractFileSinkFailoverTest::isTail);
        assertEveryRecordExactlyOnce(objects);
        assertThat(s3.listMultipartUploads(b -> b.bucket(target.bucket()).prefix(run + "/"))
                        .uploads())
                .as("multipart uploads left under %s", run)
                .isEmpty();
        output.getFileSystem().delete(new Path("s3://" + target.bucket() + "/" + run), true);
    }

    private static boolean isTail(String key) {
        return TailObjects.isTailObjectName(key.substring(key.lastIndexOf('/') + 1));
    }

    private Configuration jobConfiguration() {
        Configuration config = new Configuration();
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(300));
        config.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ofMillis(100));
        config.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        config.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, "s3://" + target.bucket() + "/" + run + "/checkpoints");
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, FAILURES);
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
        return config;
    }

    private void assertEveryRecordExactlyOnce(List<S3Object> objects) {
        BitSet seen = new BitSet((int) RECORDS);
        List<Long> duplicates = new ArrayList<>();
        for (S3Object object : objects) {
            byte[] file = s3.getObjectAsBytes(b -> b.bucket(target.bucket()).key(object.key()))
                    .asByteArray();
            NumberedRecords.tally(file, seen, duplicates);
        }
        assertThat(duplicates).as("records committed twice").isEmpty();
        assertThat(seen.cardinality()).as("distinct records committed").isEqualTo((int) RECORDS);
        assertThat(seen.length()).isEqualTo((int) RECORDS);
    }

    private List<S3Object> objectsUnder(String prefix) {
        List<S3Object> objects = new ArrayList<>();
        s3.listObjectsV2Paginator(b -> b.bucket(target.bucket()).prefix(prefix))
                .contents()
                .forEach(objects::add);
        return objects;
    }

    /** Even records into {@code even/}, odd ones into {@code odd/}: two in-progress files per subtask. */
    private static final class ParityBuckets implements BucketAssigner<String, String> {

        @Override
        public String getBucketId(String line, Context context) {
            return (line.charAt(9) - '0') % 2 == 0 ? "even" : "odd";
        }

        @Override
        public SimpleVersionedSerializer<String> getSerializer() {
            return SimpleVersionedStringSerializer.INSTANCE;
        }
    }
}
