package dev.flinks3.bench.checkpoint.job;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.MemorySize;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The parameters of {@link LargeStateGeneratorJob}, parsed by picocli (one parser for local mode,
 * comparison mode, cluster mode and tests: add an instance as a {@code @Mixin}). Options are spelled in
 * kebab-case; the camelCase spellings of earlier versions ({@code --numKeys}) stay accepted, and
 * {@link #toArguments()} and {@link #toMap()} keep them, so job arguments in existing manifests, a running
 * job's global parameters and results files read the same.
 *
 * <p>The state the job builds is fixed by these figures: {@link #keyCount()} keys of
 * {@link #valueSizeBytes()} bytes each, written by {@link #totalRecords()} records, so every run
 * with the same parameters ends with byte-identical state whatever filesystem it checkpoints to.
 * Mutable only while picocli fills it; {@link #validate()} before use.
 */
public final class JobParameters implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final long BYTES_PER_GIB = 1L << 30;

    /** Most RocksDB transfer threads {@code --rocksdb-transfer-threads} takes. */
    public static final int MAX_TRANSFER_THREADS = 64;

    @Option(
            names = {"--num-keys", "--numKeys"},
            defaultValue = "8192",
            description = "Distinct keys at most (default: ${DEFAULT-VALUE}).")
    int numKeys;

    @Option(
            names = {"--value-size-kb", "--valueSizeKb"},
            defaultValue = "64",
            description = "Size of each key's value in KiB (default: ${DEFAULT-VALUE}).")
    int valueSizeKb;

    @Option(
            names = {"--target-state-gb", "--targetStateGb"},
            defaultValue = "0.25",
            description = "State stops growing past this many GiB: fewer keys are used (default: ${DEFAULT-VALUE}).")
    double targetStateGb;

    @Option(
            names = {"--records-per-second", "--recordsPerSecond"},
            defaultValue = "100",
            description = "Records per second across all source subtasks (default: ${DEFAULT-VALUE}).")
    double recordsPerSecond;

    @Option(
            names = "--parallelism",
            defaultValue = "2",
            description = "Parallelism of the job (default: ${DEFAULT-VALUE}).")
    int parallelism;

    @Option(
            names = {"--checkpoint-interval", "--checkpointInterval"},
            defaultValue = "5s",
            converter = DurationConverter.class,
            description = "Checkpoint interval, e.g. 5s, 2min (default: ${DEFAULT-VALUE}).")
    Duration checkpointInterval;

    @Option(
            names = {"--min-pause", "--minPause"},
            defaultValue = "1s",
            converter = DurationConverter.class,
            description = "Minimum pause between checkpoints (default: ${DEFAULT-VALUE}).")
    Duration minPause;

    @Option(
            names = {"--checkpoint-timeout", "--checkpointTimeout"},
            defaultValue = "10min",
            converter = DurationConverter.class,
            description = "A checkpoint not complete after this long fails (default: ${DEFAULT-VALUE}).")
    Duration checkpointTimeout;

    @Option(
            names = "--incremental",
            defaultValue = "false",
            arity = "0..1",
            fallbackValue = "true",
            description = "RocksDB incremental (true) or full (false) checkpoints; ForSt's are always incremental "
                    + "(default: ${DEFAULT-VALUE}).")
    boolean incremental;

    @Option(
            names = "--duration",
            defaultValue = "60s",
            converter = DurationConverter.class,
            description = "How long the source emits records: recordsPerSecond x duration records in all "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(
            names = "--state-backend",
            defaultValue = "rocksdb",
            converter = StateBackendKind.Converter.class,
            description = "Keyed state backend: rocksdb (local disk, files uploaded at checkpoints) or forst "
                    + "(disaggregated: SST files on s3://, asynchronous state access) (default: ${DEFAULT-VALUE}).")
    StateBackendKind stateBackend;

    @Option(
            names = "--forst-cache-size",
            defaultValue = "64m",
            description = "With --state-backend forst: bytes of SST files ForSt caches on local disk "
                    + "(state.backend.forst.cache.size-based-limit), e.g. 64m, 1g; 0 turns the cache off "
                    + "(default: ${DEFAULT-VALUE}).")
    String forstCacheSize;

    @Option(
            names = "--rocksdb-transfer-threads",
            defaultValue = "4",
            description = "With --state-backend rocksdb: threads each subtask's RocksDB uploads its files with at a "
                    + "checkpoint and downloads them with at a restore "
                    + "(state.backend.rocksdb.checkpoint.transfer.thread.num; Flink's default: 4), 1 to "
                    + MAX_TRANSFER_THREADS + " (default: ${DEFAULT-VALUE}).")
    int rocksDbTransferThreads;

    @Option(
            names = {"--records-after-restore", "--recordsAfterRestore"},
            defaultValue = "0",
            description = "Records the restored job processes after the restore (the source's indices after its "
                    + "last checkpointed one), so a report can show records/s after a restore; the restored state "
                    + "is verified once they are processed. 0: none, the state is verified at once "
                    + "(default: ${DEFAULT-VALUE}).")
    long recordsAfterRestore;

    @Option(
            names = {"--rate-after-restore", "--rateAfterRestore"},
            defaultValue = "0",
            description = "Records per second of the restored job's source across all subtasks; 0: as fast as the "
                    + "job processes them (default: ${DEFAULT-VALUE}).")
    double rateAfterRestore;

    @Option(
            names = "--restore-claim-mode",
            defaultValue = "CLAIM",
            description = "How the restored job takes the checkpoint it restores from"
                    + " (execution.state-recovery.claim-mode): CLAIM (the job owns the checkpoint, as an autoscaler"
                    + " restores; ForSt then keeps using the checkpoint's SST files where they lie when its working"
                    + " directory is on the same filesystem) or NO_CLAIM (Flink's default; ForSt copies every SST"
                    + " file into its working directory first) (default: ${DEFAULT-VALUE}).")
    String restoreClaimMode; // a name, not Flink's enum: Flink 1.20 has no RecoveryClaimMode, and this class ships

    /** Value size in bytes. */
    public int valueSizeBytes() {
        return Math.multiplyExact(valueSizeKb, 1024);
    }

    /**
     * The keys the job uses: {@code --numKeys}, or fewer when {@code numKeys x valueSize} would exceed
     * {@code --targetStateGb}; at least one.
     */
    public int keyCount() {
        long byTarget = (long) Math.floor(targetStateGb * BYTES_PER_GIB / valueSizeBytes());
        return (int) Math.max(1, Math.min(numKeys, byTarget));
    }

    /** Records the source emits in all: {@code recordsPerSecond x duration}, at least one. */
    public long totalRecords() {
        return Math.max(1, Math.round(recordsPerSecond * duration.toMillis() / 1000.0));
    }

    /** Keys that hold a value once all records are processed. */
    public long expectedKeys() {
        return Math.min(keyCount(), totalRecords());
    }

    /** Bytes of value payload once all records are processed ({@link #expectedKeys()} x value size). */
    public long expectedStateBytes() {
        return expectedKeys() * valueSizeBytes();
    }

    public int numKeys() {
        return numKeys;
    }

    public int valueSizeKb() {
        return valueSizeKb;
    }

    public double targetStateGb() {
        return targetStateGb;
    }

    public double recordsPerSecond() {
        return recordsPerSecond;
    }

    public int parallelism() {
        return parallelism;
    }

    public Duration checkpointInterval() {
        return checkpointInterval;
    }

    public Duration minPause() {
        return minPause;
    }

    public Duration checkpointTimeout() {
        return checkpointTimeout;
    }

    public boolean incremental() {
        return incremental;
    }

    /**
     * Whether checkpoints are incremental: {@code --incremental}, and always with ForSt. ForSt's SST files are
     * already on {@code s3://}, so its incremental checkpoint only references them, as disaggregated state is
     * meant to be used.
     */
    public boolean incrementalCheckpoints() {
        return incremental || stateBackend == StateBackendKind.FORST;
    }

    public Duration duration() {
        return duration;
    }

    /** {@code --records-after-restore}: records the restored job processes; 0 for none. */
    public long recordsAfterRestore() {
        return recordsAfterRestore;
    }

    /** {@code --rate-after-restore} in records per second; 0 when the restored job's source is not throttled. */
    public double rateAfterRestore() {
        return rateAfterRestore;
    }

    /** How the restored job takes its checkpoint: {@code CLAIM} or {@code NO_CLAIM}. */
    public String restoreClaimMode() {
        return restoreClaimMode.toUpperCase(Locale.ROOT);
    }

    public StateBackendKind stateBackend() {
        return stateBackend;
    }

    /** {@code --rocksdb-transfer-threads}: RocksDB's upload and download threads per subtask. */
    public int rocksDbTransferThreads() {
        return rocksDbTransferThreads;
    }

    /** {@code --forst-cache-size} in bytes; 0 when the cache is off. */
    public long forstCacheSizeBytes() {
        return MemorySize.parse(forstCacheSize).getBytes();
    }

    /**
     * Checks ranges.
     *
     * @return this
     * @throws IllegalArgumentException naming the first parameter out of range
     */
    public JobParameters validate() {
        if (!List.of("CLAIM", "NO_CLAIM").contains(restoreClaimMode())) {
            throw new IllegalArgumentException(
                    "--restore-claim-mode must be CLAIM or NO_CLAIM, was '" + restoreClaimMode + "'");
        }
        requirePositive("--num-keys", numKeys);
        requirePositive("--value-size-kb", valueSizeKb);
        requirePositive("--target-state-gb", targetStateGb);
        requirePositive("--records-per-second", recordsPerSecond);
        requirePositive("--parallelism", parallelism);
        requirePositive("--checkpoint-interval", checkpointInterval.toMillis());
        requirePositive("--checkpoint-timeout", checkpointTimeout.toMillis());
        requirePositive("--duration", duration.toMillis());
        try {
            forstCacheSizeBytes();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "--forst-cache-size must be a size such as 64m or 1g, was '" + forstCacheSize + "'", e);
        }
        if (rocksDbTransferThreads < 1 || rocksDbTransferThreads > MAX_TRANSFER_THREADS) {
            throw new IllegalArgumentException("--rocksdb-transfer-threads must be 1 to " + MAX_TRANSFER_THREADS
                    + ", was " + rocksDbTransferThreads);
        }
        if (recordsAfterRestore < 0) {
            throw new IllegalArgumentException("--records-after-restore must be 0 or more, was " + recordsAfterRestore);
        }
        if (!(rateAfterRestore >= 0) || Double.isInfinite(rateAfterRestore)) {
            throw new IllegalArgumentException(
                    "--rate-after-restore must be 0 (not throttled) or a positive rate, was " + rateAfterRestore);
        }
        if (minPause.isNegative()) {
            throw new IllegalArgumentException("--min-pause must not be negative, was " + minPause);
        }
        if (parallelism > LargeStateGeneratorJob.MAX_PARALLELISM) {
            throw new IllegalArgumentException(
                    "--parallelism must be at most " + LargeStateGeneratorJob.MAX_PARALLELISM + ", was " + parallelism);
        }
        return this;
    }

    /**
     * The command-line arguments that reproduce these parameters, for a child JVM or a report.
     */
    public List<String> toArguments() {
        List<String> args = new ArrayList<>();
        add(args, "--numKeys", Integer.toString(numKeys));
        add(args, "--valueSizeKb", Integer.toString(valueSizeKb));
        add(args, "--targetStateGb", Double.toString(targetStateGb));
        add(args, "--recordsPerSecond", Double.toString(recordsPerSecond));
        add(args, "--parallelism", Integer.toString(parallelism));
        add(args, "--checkpointInterval", checkpointInterval.toMillis() + "ms");
        add(args, "--minPause", minPause.toMillis() + "ms");
        add(args, "--checkpointTimeout", checkpointTimeout.toMillis() + "ms");
        add(args, "--incremental", Boolean.toString(incremental));
        add(args, "--duration", duration.toMillis() + "ms");
        add(args, "--state-backend", stateBackend.configName());
        add(args, "--forst-cache-size", forstCacheSize);
        add(args, "--rocksdb-transfer-threads", Integer.toString(rocksDbTransferThreads));
        add(args, "--records-after-restore", Long.toString(recordsAfterRestore));
        add(args, "--rate-after-restore", Double.toString(rateAfterRestore));
        add(args, "--restore-claim-mode", restoreClaimMode());
        return args;
    }

    /** The parameters by option name without dashes, in option order (e.g. {@code numKeys -> 4096}). */
    public Map<String, String> toMap() {
        Map<String, String> map = new LinkedHashMap<>();
        List<String> args = toArguments();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            map.put(args.get(i).substring(2), args.get(i + 1));
        }
        return map;
    }

    /**
     * The parameters of a {@link #toMap()}, e.g. read back from a running job's configuration.
     *
     * @throws picocli.CommandLine.ParameterException if a name is unknown or a value malformed
     */
    public static JobParameters fromMap(Map<String, String> map) {
        List<String> args = new ArrayList<>();
        map.forEach((name, value) -> add(args, "--" + name, value));
        JobParameters parameters = new JobParameters();
        new CommandLine(parameters).parseArgs(args.toArray(String[]::new));
        return parameters;
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "%d keys x %d KiB (%.1f MB), %d records at %.0f/s, parallelism %d, %s, %s checkpoints every %d ms",
                keyCount(),
                valueSizeKb,
                expectedStateBytes() / 1e6,
                totalRecords(),
                recordsPerSecond,
                parallelism,
                stateBackend == StateBackendKind.FORST ? "forst (cache " + forstCacheSize + ")" : "rocksdb",
                incrementalCheckpoints() ? "incremental" : "full",
                checkpointInterval.toMillis());
    }

    private static void add(List<String> args, String name, String value) {
        args.add(name);
        args.add(value);
    }

    private static void requirePositive(String name, double value) {
        if (!(value > 0)) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
