package dev.flinks3.it.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flinks3.it.NumberedRecords;
import dev.flinks3.it.SharedS3Proxy;
import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.state.forst.ForStOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.PartFileInfo;
import org.apache.flink.streaming.api.functions.sink.filesystem.RollingPolicy;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Switching a running job between Flink 2.3.0's S3 plugins and ours, both ways, with the other plugin's real
 * jar loaded through Flink's plugin mechanism ({@link RivalPlugin}) in this JVM's MiniCluster:
 *
 * <ul>
 *   <li>a {@code FileSink} savepoint of {@code flink-s3-fs-hadoop} ({@code s3a://}) and of {@code
 *       flink-s3-fs-native} ({@code s3://}), taken with one file in progress (parts and an incomplete part) and
 *       one pending (its commit refused, so it stays pending), restored on ours: every record in exactly one
 *       committed file, nothing else under the output, no multipart upload left open;
 *   <li>checkpoints of RocksDB (incremental, through presto on {@code s3p://} and through native on {@code
 *       s3://}; full, through hadoop on {@code s3a://}) and of ForSt (through native on {@code s3://}), restored on
 *       ours with the state checked against the source ({@link CountingState});
 *   <li>the way back: an incremental RocksDB checkpoint written by ours restored by each of the three.
 * </ul>
 *
 * During every restore on ours the other plugin stays installed, as during a switch: ours serves by its higher
 * priority.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class SwitchPluginsTest {

    private static final String BUCKET = SharedS3Proxy.BUCKET;
    private static final long SINK_RECORDS = 20_000;
    private static final Duration WAIT = Duration.ofSeconds(90);

    private final String run = "switch-" + UUID.randomUUID();
    private MiniCluster cluster;
    private S3Client s3;

    @BeforeAll
    void startCluster() throws Exception {
        Configuration config = new Configuration();
        config.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.ofMebiBytes(128));
        cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(config)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .build());
        cluster.start();
        s3 = SharedS3Proxy.target().sdkClient();
    }

    @AfterAll
    void stopCluster() throws Exception {
        SharedS3Proxy.server().answers().clear();
        FileSystem.initialize(new Configuration(), null);
        s3.close();
        cluster.close();
    }

    @Test
    void aFileSinkSavepointOfFlinkS3FsHadoopIsRestoredOnOurs() throws Exception {
        fileSinkSavepointRestoredOnOurs(RivalPlugin.HADOOP, "s3a");
    }

    @Test
    void aFileSinkSavepointOfFlinkS3FsNativeIsRestoredOnOurs() throws Exception {
        fileSinkSavepointRestoredOnOurs(RivalPlugin.NATIVE, "s3");
    }

    @Test
    void anIncrementalRocksDbCheckpointOfPrestoOnS3pIsRestoredOnOurs() throws Exception {
        stateRestoredOnOurs(RivalPlugin.PRESTO, "s3p", "rocksdb", true);
    }

    @Test
    void aFullRocksDbCheckpointOfHadoopOnS3aIsRestoredOnOurs() throws Exception {
        stateRestoredOnOurs(RivalPlugin.HADOOP, "s3a", "rocksdb", false);
    }

    @Test
    void anIncrementalRocksDbCheckpointOfNativeOnS3IsRestoredOnOurs() throws Exception {
        stateRestoredOnOurs(RivalPlugin.NATIVE, "s3", "rocksdb", true);
    }

    @Test
    void aForStCheckpointOfNativeOnS3IsRestoredOnOurs() throws Exception {
        stateRestoredOnOurs(RivalPlugin.NATIVE, "s3", "forst", true);
    }

    /** Rolling back: what ours wrote of RocksDB's state is plain S3 objects every other plugin reads. */
    @Test
    void anIncrementalRocksDbCheckpointOfOursIsRestoredByEachOtherPlugin() throws Exception {
        RivalPlugin.install(null, false);
        String directory = "s3://" + BUCKET + "/" + run + "/ours-rocksdb";
        String checkpoint = checkpointOf("rocksdb", true, directory);
        for (RivalPlugin rival : RivalPlugin.values()) {
            RivalPlugin.install(rival, true);
            RivalPlugin.assertServedBy(directory, rival);
            restoreAndCheck(checkpoint, "rocksdb", directory + "-" + rival, "ours' checkpoint restored by " + rival);
        }
    }

    /**
     * The documented way back for a FileSink job: the other plugin cannot read ours' sink state (its restore
     * fails naming the version), so the job is stopped with a drained savepoint, which commits every file, and
     * started on the other plugin with the sink's state left behind (a new sink uid, non-restored state allowed).
     */
    @Test
    void aFileSinkOfOursGoesBackToHadoopAfterADrainedStopWithoutItsSinkState() throws Exception {
        String base = run + "/ours-filesink";
        String directory = "s3a://" + BUCKET + "/" + base;
        Path output = new Path(directory + "/out");
        RivalPlugin.install(null, false);
        RivalPlugin.assertServedBy(directory, null);
        Lines.slowFrom = 14_000;
        String savepoint;
        try {
            // Checkpointing on, as in production: the drained savepoint then holds the sink's last committables.
            JobID first = submit(fileSinkJob(output, directory, Duration.ofMinutes(30), 5_000, "sink"), null);
            await().atMost(WAIT).until(() -> partsUploadedUnder(base + "/out/") >= 3);
            savepoint = cluster.stopWithSavepoint(first, directory + "/savepoints", true, SavepointFormatType.CANONICAL)
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
            cluster.requestJobResult(first).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } finally {
            Lines.slowFrom = Long.MAX_VALUE;
        }
        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix(base + "/"))
                        .uploads())
                .as("files left in progress or pending by the drained stop")
                .isEmpty();

        RivalPlugin.install(RivalPlugin.HADOOP, true);
        RivalPlugin.assertServedBy(directory, RivalPlugin.HADOOP);
        JobResult refused = cluster.requestJobResult(
                        submit(fileSinkJob(output, directory, Duration.ofMillis(200), 0, "sink"), savepoint))
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(refused.isSuccess()).as("hadoop restoring ours' sink state").isFalse();
        assertThat(refused.getSerializedThrowable().orElseThrow().getFullStringifiedStackTrace())
                .contains("Unrecognized version or corrupt state: 3");

        JobResult result = cluster.requestJobResult(submit(
                        fileSinkJob(output, directory, Duration.ofMillis(200), 0, "sink-after-rollback"),
                        savepoint,
                        true))
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertSucceeded(result, "ours' drained savepoint restored on hadoop without the sink's state");
        List<S3Object> objects = objectsUnder(base + "/out/");
        assertThat(objects)
                .extracting(S3Object::key)
                .allSatisfy(key -> assertThat(key).matches(base + "/out/part-[^/]+"));
        assertEveryRecordOnce(objects);
    }

    private void stateRestoredOnOurs(RivalPlugin rival, String scheme, String backend, boolean incremental)
            throws Exception {
        String directory = scheme + "://" + BUCKET + "/" + run + "/" + rival + "-" + backend;
        RivalPlugin.install(rival, true);
        RivalPlugin.assertServedBy(directory, rival);
        String checkpoint = checkpointOf(backend, incremental, directory);
        assertThat(checkpoint).startsWith(scheme + "://");

        RivalPlugin.install(rival, false);
        RivalPlugin.assertServedBy(directory, null);
        restoreAndCheck(checkpoint, backend, directory + "-restored", rival + "'s checkpoint restored on ours");
    }

    /** Runs the counting job on the plugin installed now until about a sixth is processed; returns its checkpoint. */
    private String checkpointOf(String backend, boolean incremental, String directory) throws Exception {
        CountingState.reset();
        Configuration job = stateJob(backend, directory);
        job.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, incremental);
        job.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, directory + "/checkpoints");
        job.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMinutes(30));
        job.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, job);
        CountingState.addTo(env, 1_000);
        JobID id = submit(env, null);
        await().atMost(WAIT).until(() -> CountingState.PROCESSED.get() >= 1_000);
        // Under load a subtask may still be starting: Flink refuses a checkpoint until every task runs.
        String checkpoint = await().atMost(WAIT)
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> cluster.triggerCheckpoint(id).get(WAIT.toSeconds(), TimeUnit.SECONDS), path -> true);
        cancel(id);
        assertThat(CountingState.COMPLETED)
                .as("keys completed before the restore")
                .isEmpty();
        return checkpoint;
    }

    private void restoreAndCheck(String checkpoint, String backend, String directory, String what) throws Exception {
        CountingState.reset();
        Configuration job = stateJob(backend, directory);
        job.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, directory + "/checkpoints");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, job);
        CountingState.addTo(env, 0);
        JobResult result = cluster.requestJobResult(submit(env, checkpoint)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertSucceeded(result, what);
        CountingState.assertRestoredStateMatchesTheSource(what);
    }

    private static Configuration stateJob(String backend, String directory) {
        Configuration job = new Configuration();
        job.set(StateBackendOptions.STATE_BACKEND, backend);
        job.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        job.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        if (backend.equals("forst")) {
            job.set(ForStOptions.PRIMARY_DIRECTORY, directory + "/forst");
            // ForSt 2.3.0's file cache can corrupt a checkpoint; off means both limits 0.
            job.set(ForStOptions.CACHE_SIZE_BASE_LIMIT, MemorySize.ZERO);
            job.set(ForStOptions.CACHE_RESERVED_SIZE, MemorySize.ZERO);
        }
        return job;
    }

    private void fileSinkSavepointRestoredOnOurs(RivalPlugin rival, String scheme) throws Exception {
        String base = run + "/" + rival + "-filesink";
        String directory = scheme + "://" + BUCKET + "/" + base;
        Path output = new Path(directory + "/out");
        EmbeddedS3Server server = SharedS3Proxy.server();
        RivalPlugin.install(rival, true);
        RivalPlugin.assertServedBy(directory, rival);
        // The other plugin's commits are refused: its pending file stays pending in the savepoint.
        AnswerRewriteFilter.Rule refused = server.answers()
                .refuse(
                        RequestKind.COMPLETE_MULTIPART_UPLOAD,
                        request -> request.getRequestURI().contains("/" + base + "/out/"),
                        AnswerRewriteFilter.ALWAYS,
                        400,
                        "InvalidRequest",
                        "refused by the test, so that the file stays pending");
        if (rival == RivalPlugin.NATIVE) {
            // flink-s3-fs-native 2.3.0 aborts the upload of its file in progress when the job ends (its stream's
            // close), so only a savepoint followed by a lost TaskManager leaves that file resumable; the refused
            // aborts stand for the lost TaskManager. After a cancel or a stop without --drain, ours fails naming
            // this (ForeignWriter's advice, ForeignRecoveryTest).
            server.answers()
                    .refuse(
                            RequestKind.ABORT_MULTIPART_UPLOAD,
                            request -> request.getRequestURI().contains("/" + base + "/out/"),
                            AnswerRewriteFilter.ALWAYS,
                            500,
                            "InternalError",
                            "refused by the test: the TaskManager is lost before it closes its files");
        }
        JobID first;
        String savepoint;
        Lines.slowFrom = 14_000;
        try {
            first = submit(fileSinkJob(output, directory, null, 5_000, "sink"), null);
            // Two parts of the first file (rolled at 8 MiB, pending now) and one of the second (in progress).
            await().atMost(WAIT).until(() -> partsUploadedUnder(base + "/out/") >= 3);
            savepoint = cluster.triggerSavepoint(first, directory + "/savepoints", false, SavepointFormatType.CANONICAL)
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
            cancel(first);
        } finally {
            server.answers().clear();
            Lines.slowFrom = Long.MAX_VALUE;
        }
        assertThat(objectsUnder(base + "/out/"))
                .as("files committed by %s (its commits were refused %d times)", rival, refused.applied())
                .noneMatch(object -> object.key().matches(base + "/out/part-[^/]+"));

        RivalPlugin.install(rival, false);
        RivalPlugin.assertServedBy(directory, null);
        JobResult result = cluster.requestJobResult(
                        submit(fileSinkJob(output, directory, Duration.ofMillis(200), 0, "sink"), savepoint))
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertSucceeded(result, rival + "'s FileSink savepoint restored on ours");

        List<S3Object> objects = objectsUnder(base + "/out/");
        assertThat(objects)
                .extracting(S3Object::key)
                .as("only committed part files: no incomplete part, tail or in-progress file of either plugin")
                .allSatisfy(key -> assertThat(key).matches(base + "/out/part-[^/]+"));
        assertEveryRecordOnce(objects);
        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix(base + "/"))
                        .uploads())
                .as("multipart uploads left open under %s", base)
                .isEmpty();
    }

    /**
     * The FileSink job: numbered records (at {@code rate} per second, 0 for unthrottled) as lines into {@code
     * output}, with checkpoints every {@code interval} ({@code null}: no periodic checkpoint, only the test's
     * savepoint, so no file is committed before it).
     */
    private StreamExecutionEnvironment fileSinkJob(
            Path output, String directory, Duration interval, double rate, String sinkUid) {
        Configuration job = new Configuration();
        job.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        job.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, directory + "/checkpoints");
        if (interval != null) {
            job.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, interval);
        }
        job.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, job);
        env.fromSource(
                        new DataGeneratorSource<>(
                                n -> n,
                                SINK_RECORDS,
                                rate > 0 ? RateLimiterStrategy.perSecond(rate) : RateLimiterStrategy.noOp(),
                                Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "numbered records")
                .uid("records")
                .map(new Lines())
                .uid("lines")
                .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<String>())
                        .withBucketAssigner(new BasePathBucketAssigner<>())
                        .withRollingPolicy(new FirstFileRollsAtEightMebibytes())
                        .build())
                .uid(sinkUid);
        return env;
    }

    private void assertEveryRecordOnce(List<S3Object> objects) {
        BitSet seen = new BitSet((int) SINK_RECORDS);
        List<Long> twice = new ArrayList<>();
        for (S3Object object : objects) {
            NumberedRecords.tally(
                    s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(object.key())).asByteArray(), seen, twice);
        }
        assertThat(twice).as("records committed twice").isEmpty();
        assertThat(seen.cardinality()).as("distinct records committed").isEqualTo((int) SINK_RECORDS);
    }

    private JobID submit(StreamExecutionEnvironment env, String restoreFrom) throws Exception {
        return submit(env, restoreFrom, false);
    }

    private JobID submit(StreamExecutionEnvironment env, String restoreFrom, boolean allowNonRestoredState)
            throws Exception {
        StreamGraph graph = env.getStreamGraph();
        if (restoreFrom != null) {
            graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(restoreFrom, allowNonRestoredState));
        }
        return cluster.submitJob(graph.getJobGraph())
                .get(WAIT.toSeconds(), TimeUnit.SECONDS)
                .getJobID();
    }

    /** Cancels the job unless it has ended (failed on the refused commit), and waits for its end. */
    private void cancel(JobID id) throws Exception {
        if (!cluster.getJobStatus(id).get().isGloballyTerminalState()) {
            try {
                cluster.cancelJob(id).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception endedMeanwhile) {
                // the job failed on its own between the two calls
            }
        }
        cluster.requestJobResult(id).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static void assertSucceeded(JobResult result, String what) throws Exception {
        if (!result.isSuccess()) {
            throw new AssertionError(
                    what + " failed",
                    result.getSerializedThrowable()
                            .map(t -> t.deserializeError(SwitchPluginsTest.class.getClassLoader()))
                            .orElse(null));
        }
    }

    private long partsUploadedUnder(String prefix) {
        return SharedS3Proxy.server().requestLog().entries(RequestKind.UPLOAD_PART).stream()
                .filter(request -> request.key() != null && request.key().startsWith(prefix))
                .count();
    }

    private List<S3Object> objectsUnder(String prefix) {
        List<S3Object> objects = new ArrayList<>();
        s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(prefix))
                .contents()
                .forEach(objects::add);
        return objects;
    }

    /**
     * Rolls the first part file at 8 MiB (records below 10,000) and no other before the end of the input, so the
     * savepoint holds one pending file and one in progress, and the other plugin opens no upload after it.
     */
    private static final class FirstFileRollsAtEightMebibytes implements RollingPolicy<String, String> {

        private static final long serialVersionUID = 1L;

        @Override
        public boolean shouldRollOnCheckpoint(PartFileInfo<String> file) {
            return false;
        }

        @Override
        public boolean shouldRollOnEvent(PartFileInfo<String> file, String line) throws IOException {
            return file.getSize() >= 8 * 1024 * 1024 && Long.parseLong(line.substring(0, 10)) < 10_000;
        }

        @Override
        public boolean shouldRollOnProcessingTime(PartFileInfo<String> file, long currentTime) {
            return false;
        }
    }

    /**
     * The records as lines; from record {@link #slowFrom} on, 2 ms each, so a job's source cannot reach its end
     * before the test took its savepoint, however busy the machine is. In this JVM's MiniCluster only.
     */
    private static final class Lines implements org.apache.flink.api.common.functions.MapFunction<Long, String> {

        private static final long serialVersionUID = 1L;
        static volatile long slowFrom = Long.MAX_VALUE;

        @Override
        public String map(Long number) throws InterruptedException {
            if (number >= slowFrom) {
                Thread.sleep(2);
            }
            return NumberedRecords.line(number);
        }
    }
}
