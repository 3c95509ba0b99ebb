package dev.flinks3.bench.fsbench.workloads;

/**
 * One workload as run inside a contender's JVM: untimed set-up, the timed part, untimed checks.
 * A task is used once.
 */
public interface WorkloadTask {

    /** What the timed part did. */
    record Outcome(long bytes, long operations) {}

    /** How the plugin is driven, e.g. {@code ByteBufferReadable} or {@code 8 threads of open + read}. */
    String method();

    /** Creates what the timed part needs (files to read or delete); not timed, not counted. */
    void prepare() throws Exception;

    /** The timed part. */
    Outcome run() throws Exception;

    /**
     * Checks the bytes written or read; not timed, not counted.
     *
     * @return empty if every byte is right, otherwise what was wrong
     */
    String verify() throws Exception;

    /** The task for one workload. */
    static WorkloadTask of(FsWorkload workload, WorkloadContext context) {
        return switch (workload) {
            case STREAM_WRITE -> StreamWrites.single(context);
            case CONCURRENT_STREAMS -> StreamWrites.concurrent(context);
            case SEQUENTIAL_READ -> new SequentialRead(context);
            case SMALL_FILES -> new SmallFiles(context);
            case POSITIONAL_READS -> new PositionalReads(context, true, false);
            case SEEK_READS -> new PositionalReads(context, false, false);
            case POSITIONAL_SCAN -> new PositionalReads(context, true, true);
            case RESTORE_DOWNLOAD -> new RestoreDownload(context);
            case RECURSIVE_DELETE -> new RecursiveDelete(context);
            case RECOVERABLE_PERSIST -> new RecoverablePersist(context);
        };
    }
}
