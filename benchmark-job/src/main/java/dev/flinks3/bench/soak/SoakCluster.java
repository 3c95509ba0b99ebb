package dev.flinks3.bench.soak;

import java.net.URI;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The Flink cluster a soak runs its jobs on and stops TaskManagers of: a MiniCluster in the soak's JVM ({@link
 * MiniSoakCluster}) or a JobManager and TaskManager processes of a Flink installation ({@link ProcessCluster}).
 */
interface SoakCluster extends AutoCloseable {

    /** Environments that submit a job with the given job configuration to this cluster. */
    Function<Configuration, StreamExecutionEnvironment> environments();

    /** The JobManager's REST address. */
    URI restAddress();

    /** The processes to sample now, the TaskManagers that run now among them. */
    List<SampledProcess> processes();

    /**
     * Takes a TaskManager away as the soak's fault and starts another in its place.
     *
     * @return the name of the process killed ({@link SampledProcess#name()}), empty if the TaskManager lived in a
     *     process that lives on
     * @throws Exception if the TaskManager could not be stopped or the next one not started
     */
    String stopTaskManager() throws Exception;

    /** How {@link #stopTaskManager()} takes a TaskManager away, in words for the report. */
    String stopDescription();
}
