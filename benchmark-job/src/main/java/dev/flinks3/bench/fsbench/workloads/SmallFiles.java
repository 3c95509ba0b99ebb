package dev.flinks3.bench.fsbench.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;

/**
 * Small checkpoint files one after another, as one task writing many small states does: each
 * {@code create(NO_OVERWRITE)}, one write of {@link WorkloadSizes#smallFileBytes()} (or several of
 * {@link WorkloadSizes#writeBytes()}), {@code close()}. Checked afterwards by reading each back.
 */
final class SmallFiles implements WorkloadTask {

    private static final long SEED_BASE = 1_000;
    private static final int VERIFY_THREADS = 8;

    private final WorkloadContext context;
    private final PatternFiles files;

    SmallFiles(WorkloadContext context) {
        this.context = context;
        this.files = new PatternFiles(context.fs(), context.data());
    }

    @Override
    public String method() {
        return "create(NO_OVERWRITE) + write + close, sequential";
    }

    @Override
    public void prepare() {
        // Each run writes to a fresh bucket: nothing to set up.
    }

    @Override
    public Outcome run() throws Exception {
        WorkloadSizes sizes = context.sizes();
        for (int i = 0; i < sizes.smallFiles(); i++) {
            files.write(path(i), SEED_BASE + i, sizes.smallFileBytes(), sizes.writeBytes(), WriteMode.NO_OVERWRITE);
        }
        return new Outcome((long) sizes.smallFiles() * sizes.smallFileBytes(), sizes.smallFiles());
    }

    @Override
    public String verify() throws Exception {
        List<Callable<String>> readers = new ArrayList<>();
        for (int i = 0; i < context.sizes().smallFiles(); i++) {
            int file = i;
            readers.add(() -> files.readChecked(
                    path(file), SEED_BASE + file, context.sizes().smallFileBytes()));
        }
        return Parallel.firstProblem(Parallel.run(VERIFY_THREADS, "small-file-verifier", readers));
    }

    private Path path(int file) {
        return new Path(context.root(), String.format("small/f-%05d", file));
    }
}
