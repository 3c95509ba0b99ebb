package dev.flinks3.bench.fsbench.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;

/**
 * Checkpoint-like streams: each {@code create(path, NO_OVERWRITE)}, written in calls of
 * {@link WorkloadSizes#writeBytes()} and closed, one thread per stream. The timed part ends when
 * every stream's {@code close()} has returned, i.e. when the object is complete in S3.
 * Checked afterwards by reading every file back.
 */
final class StreamWrites implements WorkloadTask {

    private static final long CONCURRENT_SEED_BASE = 100;

    private final WorkloadContext context;
    private final PatternFiles files;
    private final List<Path> paths;
    private final List<Long> seeds;

    private StreamWrites(WorkloadContext context, List<Path> paths, List<Long> seeds) {
        this.context = context;
        this.files = new PatternFiles(context.fs(), context.data());
        this.paths = paths;
        this.seeds = seeds;
    }

    /** The single stream, at {@link WorkloadContext#streamFile()}, which the read workloads then read. */
    static StreamWrites single(WorkloadContext context) {
        return new StreamWrites(context, List.of(context.streamFile()), List.of(WorkloadContext.STREAM_SEED));
    }

    /** {@link WorkloadSizes#concurrentStreams()} streams at once. */
    static StreamWrites concurrent(WorkloadContext context) {
        List<Path> paths = new ArrayList<>();
        List<Long> seeds = new ArrayList<>();
        for (int i = 0; i < context.sizes().concurrentStreams(); i++) {
            paths.add(new Path(context.root(), "streams/s-" + i));
            seeds.add(CONCURRENT_SEED_BASE + i);
        }
        return new StreamWrites(context, paths, seeds);
    }

    @Override
    public String method() {
        return paths.size() + " x create(NO_OVERWRITE) + " + context.sizes().writeBytes() / 1024
                + " KiB writes + close";
    }

    @Override
    public void prepare() {
        // Each run writes to a fresh bucket: nothing to set up.
    }

    @Override
    public Outcome run() throws Exception {
        long length = context.sizes().streamBytes();
        int writeBytes = context.sizes().writeBytes();
        if (paths.size() == 1) {
            files.write(paths.get(0), seeds.get(0), length, writeBytes, WriteMode.NO_OVERWRITE);
        } else {
            List<Callable<Void>> writers = new ArrayList<>();
            for (int i = 0; i < paths.size(); i++) {
                Path path = paths.get(i);
                long seed = seeds.get(i);
                writers.add(() -> {
                    files.write(path, seed, length, writeBytes, WriteMode.NO_OVERWRITE);
                    return null;
                });
            }
            Parallel.run(paths.size(), "stream-writer", writers);
        }
        return new Outcome(length * paths.size(), paths.size());
    }

    @Override
    public String verify() throws Exception {
        long length = context.sizes().streamBytes();
        List<Callable<String>> readers = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            Path path = paths.get(i);
            long seed = seeds.get(i);
            readers.add(() -> files.readChecked(path, seed, length));
        }
        return Parallel.firstProblem(Parallel.run(paths.size(), "stream-verifier", readers));
    }
}
