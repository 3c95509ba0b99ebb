package dev.flinks3.bench.checkpoint.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flinks3.bench.checkpoint.job.GeneratedRecord;
import dev.flinks3.bench.checkpoint.job.JobAccumulators;
import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.LargeStateGeneratorJob;
import dev.flinks3.bench.checkpoint.job.RecordGenerator;
import dev.flinks3.bench.checkpoint.job.ValueDigest;
import dev.flinks3.bench.checkpoint.job.source.SequenceSource.AfterLastRecord;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.NetworkProfile;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The main job with {@code --state-backend forst} under failover: ForSt keeps its SST files on
 * {@code s3://} of the embedded server through our plugin jar (loaded from a plugins folder, as a Flink
 * process loads it), checkpoints go to the same bucket, and after two completed checkpoints (and with SST objects
 * in ForSt's primary directory on the server) the only TaskManager is killed and a new one started. The job restores from its latest checkpoint (one restart
 * allowed), every subtask reads its restored state back and compares it with the per-key-group digests the
 * checkpoint recorded, and the job runs to its last record: its final state digest must equal the one computed
 * here from the generator alone, as if nothing had failed (exactly-once state).
 */
// Above the sum of the test's own bounded waits (the cluster's start, 60 s for two checkpoints, 30 s for the kill, 4
// min for the job's end, 1 min for the cluster's close), so a hang fails with the diagnosis, not JUnit's timeout.
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ForStFailoverIT {

    private static final String BUCKET = "forst";
    private static final int PARALLELISM = 2;

    @TempDir
    Path work;

    @Test
    void aForStJobRestoresVerifiedStateFromS3AfterItsTaskManagerIsKilled() throws Exception {
        JobParameters parameters = new JobParameters();
        new CommandLine(parameters)
                .parseArgs(
                        "--state-backend",
                        "forst",
                        "--forst-cache-size",
                        "8m",
                        "--numKeys",
                        "300",
                        "--valueSizeKb",
                        "8",
                        "--recordsPerSecond",
                        "100",
                        "--duration",
                        "30s",
                        "--checkpointInterval",
                        "1s",
                        "--minPause",
                        "200ms",
                        "--parallelism",
                        Integer.toString(PARALLELISM));
        parameters.validate();
        String checkpoints = "s3://" + BUCKET + "/failover";

        try (EmbeddedS3Server server = EmbeddedS3Server.builder()
                .baseDir(work.resolve("s3"))
                .profile(NetworkProfile.named("lan"))
                .bucket(BUCKET)
                .start()) {
            Configuration conf = OurPlugin.s3Configuration(server);
            PluginManager plugins = OurPlugin.inPluginsFolder(work, conf);
            FileSystem.initialize(conf, plugins);
            MiniCluster cluster = startCluster(conf, plugins);
            try {
                JobClient job = submit(cluster, parameters, checkpoints);
                JobID id = job.getJobID();
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> cluster.getExecutionGraph(id)
                                        .get()
                                        .getCheckpointStatsSnapshot()
                                        .getCounts()
                                        .getNumberOfCompletedCheckpoints()
                                >= 2);
                Path primary =
                        work.resolve("s3").resolve(BUCKET).resolve("failover").resolve("forst");
                assertThat(sstObjectsUnder(primary))
                        .as("ForSt's SST files on S3, in its primary directory")
                        .isPositive();

                assertThat(cluster.getJobStatus(id).get(30, TimeUnit.SECONDS))
                        .as("still running, records left to process")
                        .isEqualTo(JobStatus.RUNNING);

                cluster.terminateTaskManager(0).get(30, TimeUnit.SECONDS);
                cluster.startTaskManager();

                JobExecutionResult result = resultOrDiagnosis(cluster, job, Duration.ofMinutes(4));
                assertThat(accumulator(result, JobAccumulators.RESTORE_VERIFIED_SUBTASKS))
                        .as("every subtask restored and verified its state")
                        .isEqualTo(PARALLELISM);
                assertThat(accumulator(result, JobAccumulators.RESTORE_VERIFIED_KEYS))
                        .isPositive();
                assertThat(accumulator(result, JobAccumulators.STATE_DIGEST))
                        .as("final state digest, as without the failure")
                        .isEqualTo(expectedFinalDigest(parameters));
            } finally {
                closeWithin(cluster, Duration.ofMinutes(1));
            }
        }
    }

    private MiniCluster startCluster(Configuration s3, PluginManager plugins) throws Exception {
        Configuration conf = new Configuration(s3);
        conf.set(
                CoreOptions.TMP_DIRS,
                Files.createDirectories(work.resolve("tmp")).toString());
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.PORT, 0);
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.ofMebiBytes(128));
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(PARALLELISM)
                .setPluginManager(plugins)
                .build());
        cluster.start();
        return cluster;
    }

    /**
     * Closes the cluster, waiting at most {@code limit}: a cluster whose job hangs can hang its close too, and the
     * test must then still end with its own failure, not the JUnit timeout's.
     */
    private static void closeWithin(MiniCluster cluster, Duration limit) {
        try {
            cluster.closeAsync().get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            System.err.println("ForStFailoverIT: the MiniCluster did not close within " + limit + ": " + e);
        }
    }

    private static JobClient submit(MiniCluster cluster, JobParameters parameters, String checkpoints)
            throws Exception {
        Configuration conf = LargeStateGeneratorJob.configuration(parameters, checkpoints);
        // The job's own setting is no restarts; here exactly one, for the killed TaskManager. A restored state
        // that does not verify fails the task again, and the job with it.
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        conf.set(DeploymentOptions.TARGET, "remote");
        var rest = cluster.getRestAddress().get(1, TimeUnit.MINUTES);
        conf.set(RestOptions.ADDRESS, rest.getHost());
        conf.set(RestOptions.PORT, rest.getPort());
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(conf);
        LargeStateGeneratorJob.addTo(env, parameters, parameters.parallelism(), AfterLastRecord.FINISH);
        return env.executeAsync(LargeStateGeneratorJob.JOB_NAME);
    }

    /**
     * The job's result, or (if it has not ended within {@code limit}) an assertion error that says where it stands:
     * its status, its checkpoint counts and the stacks of the threads that run its tasks, its asynchronous
     * checkpoint parts and the plugin's transfers, so that a job that hangs on a slow or loaded machine tells why.
     */
    private static JobExecutionResult resultOrDiagnosis(MiniCluster cluster, JobClient job, Duration limit)
            throws Exception {
        try {
            return job.getJobExecutionResult().get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            StringBuilder diagnosis = new StringBuilder("the job did not end within " + limit + " of the kill: ");
            var graph = cluster.getExecutionGraph(job.getJobID()).get(10, TimeUnit.SECONDS);
            var counts = graph.getCheckpointStatsSnapshot().getCounts();
            diagnosis
                    .append(graph.getState())
                    .append(", checkpoints completed ")
                    .append(counts.getNumberOfCompletedCheckpoints())
                    .append(", failed ")
                    .append(counts.getNumberOfFailedCheckpoints())
                    .append(", in progress ")
                    .append(counts.getNumberOfInProgressCheckpoints())
                    .append('\n');
            for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
                String name = thread.getThreadName();
                boolean task = name.contains("(") && !name.startsWith("S3Proxy");
                boolean plugin = Stream.of(thread.getStackTrace())
                        .anyMatch(frame -> frame.getClassName().startsWith("dev.flinks3")
                                || frame.getClassName().contains("forst"));
                if (task
                        || plugin
                        || name.startsWith("AsyncOperations")
                        || name.startsWith("flinks3")
                        || name.startsWith("sdk-async")) {
                    diagnosis
                            .append('"')
                            .append(name)
                            .append("\" ")
                            .append(thread.getThreadState())
                            .append('\n');
                    for (StackTraceElement frame : thread.getStackTrace()) {
                        diagnosis.append("    at ").append(frame).append('\n');
                    }
                }
            }
            // Printed at once as well: if what follows hangs, the report still has it.
            System.err.println(diagnosis);
            throw new AssertionError(diagnosis.toString(), e);
        }
    }

    /** The sum of every key's final value digest: a key's value is its first value XOR all its records. */
    private static long expectedFinalDigest(JobParameters parameters) {
        RecordGenerator generator = RecordGenerator.of(parameters);
        Map<Long, byte[]> values = new HashMap<>();
        for (long index = 0; index < parameters.totalRecords(); index++) {
            GeneratedRecord record = generator.record(index);
            RecordGenerator.apply(record, values.computeIfAbsent(record.key, generator::initialValue));
        }
        return values.entrySet().stream()
                .mapToLong(e -> ValueDigest.of(e.getKey(), e.getValue()))
                .sum();
    }

    private static long accumulator(JobExecutionResult result, String name) {
        Object value = result.getAllAccumulatorResults().get(name);
        return value == null ? 0 : ((Number) value).longValue();
    }

    /**
     * Objects of the embedded server's filesystem backend (a file per object) under {@code folder}; ForSt names
     * its SST objects by UUID, without the {@code .sst} suffix, and keeps every other file on local disk.
     */
    private static long sstObjectsUnder(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).count();
        }
    }
}
