package dev.flinks3.bench.fsbench.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;

/**
 * {@code delete(dir, true)} of a prefix holding {@link WorkloadSizes#deleteObjects()} objects, as
 * Flink's checkpoint cleanup discards a checkpoint directory. The objects are written first, in
 * parallel and untimed. Checked afterwards: the directory no longer exists.
 */
final class RecursiveDelete implements WorkloadTask {

    private static final long SEED_BASE = 20_000;
    private static final int SET_UP_THREADS = 16;

    private final WorkloadContext context;
    private final PatternFiles files;
    private final Path directory;
    private boolean deleted;

    RecursiveDelete(WorkloadContext context) {
        this.context = context;
        this.files = new PatternFiles(context.fs(), context.data());
        this.directory = new Path(context.root(), "delete");
    }

    @Override
    public String method() {
        return "delete(dir, recursive)";
    }

    @Override
    public void prepare() throws Exception {
        List<Callable<Void>> writers = new ArrayList<>();
        for (int i = 0; i < context.sizes().deleteObjects(); i++) {
            int object = i;
            writers.add(() -> {
                files.write(
                        new Path(directory, String.format("o-%05d", object)),
                        SEED_BASE + object,
                        context.sizes().deleteObjectBytes(),
                        context.sizes().writeBytes(),
                        WriteMode.OVERWRITE);
                return null;
            });
        }
        Parallel.run(SET_UP_THREADS, "delete-set-up", writers);
    }

    @Override
    public Outcome run() throws Exception {
        deleted = context.fs().delete(directory, true);
        return new Outcome(0, context.sizes().deleteObjects());
    }

    @Override
    public String verify() throws Exception {
        if (!deleted) {
            return "delete(" + directory + ", true) returned false";
        }
        return context.fs().exists(directory) ? directory + " still exists after delete(dir, true)" : "";
    }
}
