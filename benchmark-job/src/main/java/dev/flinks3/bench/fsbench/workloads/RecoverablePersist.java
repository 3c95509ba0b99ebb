package dev.flinks3.bench.fsbench.workloads;

import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;

/**
 * What a file sink does between two checkpoints: {@code createRecoverableWriter().open(path)}, writes of
 * {@link WorkloadSizes#writeBytes()} up to {@link WorkloadSizes#persistBytes()}, then {@code persist()}.
 * The timed part ends when {@code persist()} has returned, i.e. when the written bytes are durable and
 * the stream could be resumed from the returned recoverable. Checked afterwards, untimed, by
 * {@code closeForCommit().commit()} and reading the committed file back.
 *
 * @see <a href="https://nightlies.apache.org/flink/flink-docs-release-2.0/api/java/org/apache/flink/core/fs/RecoverableWriter.html">RecoverableWriter</a>
 */
final class RecoverablePersist implements WorkloadTask {

    private static final long SEED = 7;

    private final WorkloadContext context;
    private final PatternFiles files;
    private final Path path;
    private RecoverableFsDataOutputStream stream;

    RecoverablePersist(WorkloadContext context) {
        this.context = context;
        this.files = new PatternFiles(context.fs(), context.data());
        this.path = new Path(context.root(), "persist/part-0");
    }

    @Override
    public String method() {
        return "createRecoverableWriter().open + " + context.sizes().writeBytes() / 1024 + " KiB writes + persist()";
    }

    @Override
    public void prepare() {
        // Each run writes to a fresh bucket: nothing to set up.
    }

    @Override
    public Outcome run() throws Exception {
        RecoverableWriter writer = context.fs().createRecoverableWriter();
        stream = writer.open(path);
        long length = context.sizes().persistBytes();
        int writeBytes = context.sizes().writeBytes();
        for (long position = 0; position < length; position += writeBytes) {
            int chunk = (int) Math.min(writeBytes, length - position);
            stream.write(context.data().array(), context.data().offset(SEED, position), chunk);
        }
        stream.persist();
        return new Outcome(length, 1);
    }

    @Override
    public String verify() throws Exception {
        stream.closeForCommit().commit();
        return files.readChecked(path, SEED, context.sizes().persistBytes());
    }
}
