package dev.flinks3.bench.fsbench.workloads;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * What every workload of one contender run shares.
 *
 * @param fs the contender's filesystem, as {@link FileSystem#get} returns it through the plugin manager
 * @param root the {@code s3://} directory all files of this run live under
 * @param data the content of every file
 * @param sizes the workload sizes
 * @param localDir a local directory for restore downloads
 */
public record WorkloadContext(
        FileSystem fs, Path root, PatternData data, WorkloadSizes sizes, java.nio.file.Path localDir) {

    /** The seed of {@link #streamFile()}. */
    public static final long STREAM_SEED = 1;

    /** The file the single stream workload writes and the read workloads read. */
    public Path streamFile() {
        return new Path(root, "stream/one");
    }
}
