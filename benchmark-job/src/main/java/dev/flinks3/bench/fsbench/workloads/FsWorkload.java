package dev.flinks3.bench.fsbench.workloads;

/**
 * The filesystem-level workloads, in the order a contender runs them. Each names what Flink does
 * with a checkpoint filesystem and how its throughput is counted.
 */
public enum FsWorkload {
    /** One checkpoint-like stream: {@code create}, many 64 KiB writes, {@code close}. Throughput in MB/s. */
    STREAM_WRITE("one stream write", Unit.MEGABYTES),
    /** Several such streams written concurrently, one thread each. Aggregate MB/s. */
    CONCURRENT_STREAMS("concurrent stream writes", Unit.MEGABYTES),
    /** The one stream's file read from start to end. MB/s. */
    SEQUENTIAL_READ("sequential read", Unit.MEGABYTES),
    /** Many small files, each created, written once and closed, one after another. Files/s. */
    SMALL_FILES("small files", Unit.OPERATIONS),
    /** Reads of a fixed size at random offsets of the one stream's file. Reads/s. */
    POSITIONAL_READS("positional reads", Unit.OPERATIONS),
    /**
     * The same reads at the same offsets through {@code seek} + {@code read} on every contender, as a
     * reader without positional reads (or Flink's own {@code FSDataInputStream} users) does. Reads/s.
     */
    SEEK_READS("seek + read", Unit.OPERATIONS),
    /**
     * As many reads of the same size, through positional reads where offered, each starting where the one
     * before ended, from the file's start on: an SST file's blocks as an iterator over it (a scan, or the
     * copy of a key range at a rescale) reads them without read-ahead of its own. Reads/s.
     */
    POSITIONAL_SCAN("positional scan", Unit.OPERATIONS),
    /** A restore-like download of several files to local disk. MB/s. */
    RESTORE_DOWNLOAD("restore download", Unit.MEGABYTES),
    /** {@code delete(dir, true)} of a prefix holding many objects. Objects/s. */
    RECURSIVE_DELETE("recursive delete", Unit.OPERATIONS),
    /**
     * A file sink's part file between two checkpoints: a recoverable stream opened, written and
     * {@code persist()}ed. MB/s of bytes made durable.
     */
    RECOVERABLE_PERSIST("recoverable persist", Unit.MEGABYTES);

    /** What a workload's throughput counts. */
    public enum Unit {
        /** 10^6 bytes per second, as network links are rated. */
        MEGABYTES("MB/s"),
        /** Operations (files, reads, objects) per second. */
        OPERATIONS("ops/s");

        private final String label;

        Unit(String label) {
            this.label = label;
        }

        /** The unit as printed in reports. */
        public String label() {
            return label;
        }
    }

    private final String title;
    private final Unit unit;

    FsWorkload(String title, Unit unit) {
        this.title = title;
        this.unit = unit;
    }

    /** A short human-readable name for reports. */
    public String title() {
        return title;
    }

    /** What the throughput of this workload counts. */
    public Unit unit() {
        return unit;
    }

    /**
     * Whether this workload sends one GET per operation and only reads what its {@code prepare()} wrote,
     * so that its JIT warm-up may run several tasks of it at once: the positional reads, whose
     * per-request path the JIT compiles only after thousands of GETs.
     */
    public boolean oneGetPerOperation() {
        return this == POSITIONAL_READS || this == SEEK_READS || this == POSITIONAL_SCAN;
    }

    /**
     * Whether this workload only reads what its {@code prepare()} wrote and its {@code verify()} leaves nothing
     * behind (the restore's local files are deleted), so it may run once untimed, verified, before its timed
     * run: every read workload. A TaskManager reads many files in its life; a timed part that is a JVM's first
     * read of 1 GiB measured the C2 compiler too (0.22 of ours' 0.54 CPU-s, 0.02 of presto's 0.30 in
     * one round on {@code lan}).
     */
    public boolean readsOnly() {
        return oneGetPerOperation() || this == SEQUENTIAL_READ || this == RESTORE_DOWNLOAD;
    }
}
