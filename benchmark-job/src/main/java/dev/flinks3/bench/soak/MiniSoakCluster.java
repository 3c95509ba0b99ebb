package dev.flinks3.bench.soak;

import dev.flinks3.bench.checkpoint.local.LocalFlinkCluster;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The soak's cluster in its own JVM: a {@link LocalFlinkCluster} whose TaskManager is stopped with {@code
 * MiniCluster.terminateTaskManager} and replaced. The TaskManager shares the JVM with the JobManager and the plugin,
 * so the plugin's clients live on through every stop: CI's short soak, quick to start; a stop in it is a TaskManager
 * lost to the cluster, not a process killed.
 */
final class MiniSoakCluster implements SoakCluster {

    static final String PROCESS = "minicluster";

    private final LocalFlinkCluster cluster;
    private final List<Path> temporaryDirs;

    MiniSoakCluster(LocalFlinkCluster cluster, List<Path> temporaryDirs) {
        this.cluster = cluster;
        this.temporaryDirs = List.copyOf(temporaryDirs);
    }

    @Override
    public Function<Configuration, StreamExecutionEnvironment> environments() {
        return cluster.environments();
    }

    @Override
    public URI restAddress() {
        return cluster.restAddress();
    }

    @Override
    public List<SampledProcess> processes() {
        return List.of(new SampledProcess(
                PROCESS, 0, ProcessHandle.current().pid(), ManagementFactory.getPlatformMBeanServer(), temporaryDirs));
    }

    @Override
    public String stopTaskManager() throws Exception {
        cluster.replaceTaskManager();
        return "";
    }

    @Override
    public String stopDescription() {
        return "MiniCluster.terminateTaskManager(the running one) while a checkpoint was in progress, then"
                + " MiniCluster.startTaskManager() with the same slots: the TaskExecutor closes, its tasks are"
                + " cancelled (their streams closed or abandoned mid-upload) and the JobManager restarts the jobs from"
                + " their latest completed checkpoints (fixed-delay restarts, 1 s). The TaskManager shares the JVM with"
                + " the JobManager and the plugin, so its process and the plugin's S3 clients live on: a TaskManager"
                + " lost to the cluster, not a process killed with SIGKILL.";
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
