package dev.flinks3.bench.checkpoint.local;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A Flink MiniCluster (one JobManager, one TaskManager) in this JVM with its REST endpoint on
 * 127.0.0.1, so jobs are submitted and observed exactly as on a real cluster: through a remote
 * environment and the REST API. The caller initialises Flink's filesystems (with the plugin under
 * test) before starting it.
 */
public final class LocalFlinkCluster implements AutoCloseable {

    private static final long CLOSE_TIMEOUT_SECONDS = 60;

    private final MiniCluster miniCluster;
    private final URI restAddress;
    /** The index of the running TaskManager: MiniCluster keeps stopped ones in its list, new ones are appended. */
    private int runningTaskManager;

    private LocalFlinkCluster(MiniCluster miniCluster, URI restAddress) {
        this.miniCluster = miniCluster;
        this.restAddress = restAddress;
    }

    /**
     * Starts the cluster.
     *
     * @param base settings to carry (e.g. {@code s3.*}, {@code io.tmp.dirs}); the cluster adds its own
     * @param slots task slots (the largest parallelism a job may use)
     * @param managedMemory managed memory of the TaskManager, shared by RocksDB across slots
     * @param plugins the plugin manager the filesystems were initialised with
     * @throws Exception if the MiniCluster does not start
     */
    public static LocalFlinkCluster start(
            Configuration base, int slots, MemorySize managedMemory, PluginManager plugins) throws Exception {
        Configuration conf = new Configuration(base);
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.PORT, 0);
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, managedMemory);
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.ofMebiBytes(64));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.ofMebiBytes(64));
        // Accumulators reach the JobManager with heartbeats: a short interval keeps progress lines current.
        conf.set(HeartbeatManagerOptions.HEARTBEAT_INTERVAL, Duration.ofSeconds(1));
        // The collector polls every half second; a long history keeps nothing from being missed, and a short
        // refresh interval keeps the REST API's cached views of jobs and checkpoints close to the truth.
        conf.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, 1000);
        conf.set(WebOptions.REFRESH_INTERVAL, Duration.ofMillis(500));
        MiniCluster miniCluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .setPluginManager(plugins)
                .build());
        miniCluster.start();
        try {
            return new LocalFlinkCluster(
                    miniCluster, miniCluster.getRestAddress().get(1, TimeUnit.MINUTES));
        } catch (Exception e) {
            miniCluster.close();
            throw e;
        }
    }

    /** The REST address, e.g. {@code http://127.0.0.1:40123}. */
    public URI restAddress() {
        return restAddress;
    }

    /**
     * Environments that submit to this cluster through its REST endpoint, carrying the given job
     * configuration. The job's classes are on this JVM's class path, so no jar is shipped.
     */
    public Function<Configuration, StreamExecutionEnvironment> environments() {
        return jobConfiguration -> {
            Configuration conf = new Configuration(jobConfiguration);
            conf.set(DeploymentOptions.TARGET, "remote");
            conf.set(RestOptions.ADDRESS, restAddress.getHost());
            conf.set(RestOptions.PORT, restAddress.getPort());
            return new StreamExecutionEnvironment(conf);
        };
    }

    /**
     * Stops the TaskManager ({@link MiniCluster#terminateTaskManager}: its TaskExecutor closes, cancelling the
     * tasks it runs and releasing their slots, so the JobManager fails the job over) and starts a new one with
     * the same slots in its place. The TaskManager shares this JVM, so its process and the filesystem plugin's
     * clients live on: this is a TaskManager lost to the cluster, not a process killed. MiniCluster keeps each
     * stopped TaskExecutor object in its list (closed), a few objects per stop that stay on the heap.
     *
     * @throws Exception if the TaskManager does not stop within a minute or the new one does not start
     */
    public synchronized void replaceTaskManager() throws Exception {
        miniCluster.terminateTaskManager(runningTaskManager).get(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        miniCluster.startTaskManager();
        runningTaskManager++;
    }

    @Override
    public void close() throws Exception {
        miniCluster.closeAsync().get(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
