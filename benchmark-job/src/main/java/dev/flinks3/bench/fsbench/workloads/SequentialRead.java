package dev.flinks3.bench.fsbench.workloads;

import org.apache.flink.core.fs.FSDataInputStream;

/**
 * Reads the single stream's file from start to end in {@link PatternFiles#READ_BUFFER_BYTES} calls,
 * as a full-checkpoint restore does, checking every byte on the way (a memory compare and a CRC32C,
 * cheap next to the network). Writes the file first if the stream workload did not run.
 */
final class SequentialRead implements WorkloadTask {

    private final WorkloadContext context;
    private final PatternFiles files;
    private String problem = "not run";

    SequentialRead(WorkloadContext context) {
        this.context = context;
        this.files = new PatternFiles(context.fs(), context.data());
    }

    @Override
    public String method() {
        return "open + read(byte[" + PatternFiles.READ_BUFFER_BYTES / 1024 + " KiB]) to end";
    }

    @Override
    public void prepare() throws Exception {
        files.ensureStreamFile(context);
    }

    @Override
    public Outcome run() throws Exception {
        long length = context.sizes().streamBytes();
        try (FSDataInputStream in = context.fs().open(context.streamFile())) {
            ContentCheck check = new ContentCheck(
                    context.data(),
                    WorkloadContext.STREAM_SEED,
                    context.streamFile().toString(),
                    0);
            problem = PatternFiles.copyChecked(in, check, length);
        }
        return new Outcome(length, 1);
    }

    @Override
    public String verify() {
        return problem;
    }
}
