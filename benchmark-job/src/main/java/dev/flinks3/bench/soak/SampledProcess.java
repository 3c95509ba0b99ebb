package dev.flinks3.bench.soak;

import java.nio.file.Path;
import java.util.List;
import javax.management.MBeanServerConnection;

/**
 * A Flink process a soak samples: the MiniCluster's JVM (this one), or a JobManager or TaskManager process of the
 * process cluster reached over JMX.
 *
 * @param name {@code minicluster}, {@code jobmanager} or {@code taskmanager-<n>}
 * @param generation 0 for the first process of that name, one more for each started in its place after a kill
 * @param pid the operating system's process id
 * @param mbeans the process's platform MBean server
 * @param temporaryDirs its temporary folders ({@code io.tmp.dirs}, {@code java.io.tmpdir})
 */
record SampledProcess(String name, int generation, long pid, MBeanServerConnection mbeans, List<Path> temporaryDirs) {

    SampledProcess {
        temporaryDirs = List.copyOf(temporaryDirs);
    }
}
