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

    /**
     * {@link WorkloadSizes#concurrentStreams()} streams at once, stream {@code i} under the root on
     * {@link WorkloadSizes#streamScheme scheme} {@code i} (the root's own filesystem where that is the
     * root's scheme, {@link Path#getFileSystem()} for another).
     */
    static StreamWrites concurrent(WorkloadContext context) {
        List<Path> paths = new ArrayList<>();
        List<Long> seeds = new ArrayList<>();
        for (int i = 0; i < context.sizes().concurrentStreams(); i++) {
            paths.add(onScheme(
                    new Path(context.root(), "streams/s-" + i), context.sizes().streamScheme(i)));
            seeds.add(CONCURRENT_SEED_BASE + i);
        }
        return new StreamWrites(context, paths, seeds);
    }

    /** {@code path} with its scheme replaced by {@code scheme} (authority and path kept); {@code null} keeps it. */
    static Path onScheme(Path path, String scheme) {
        java.net.URI uri = path.toUri();
        if (scheme == null || scheme.equals(uri.getScheme())) {
            return path;
        }
        return new Path(scheme, uri.getAuthority(), uri.getPath());
    }

    /** The files of {@code path}'s filesystem: the context's for the root's scheme. */
    private PatternFiles filesOf(Path path) throws java.io.IOException {
        if (java.util.Objects.equals(
                path.toUri().getScheme(), context.root().toUri().getScheme())) {
            return files;
        }
        return new PatternFiles(path.getFileSystem(), context.data());
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
                PatternFiles on = filesOf(path);
                writers.add(() -> {
                    on.write(path, seed, length, writeBytes, WriteMode.NO_OVERWRITE);
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
            PatternFiles on = filesOf(path);
            readers.add(() -> on.readChecked(path, seed, length));
        }
        return Parallel.firstProblem(Parallel.run(paths.size(), "stream-verifier", readers));
    }
}
