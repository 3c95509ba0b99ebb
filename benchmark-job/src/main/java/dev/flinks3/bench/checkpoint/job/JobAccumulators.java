package dev.flinks3.bench.checkpoint.job;

/**
 * Names of the accumulators the job reports (Flink's REST API {@code /jobs/:jobid/accumulators}
 * sums each over subtasks). The runner reads them to know when all records are processed and
 * whether the restored state was verified.
 */
public final class JobAccumulators {

    /** Records the accumulator operator processed. */
    public static final String RECORDS_PROCESSED = "recordsProcessed";

    /** Keys that received their first value. */
    public static final String KEYS_CREATED = "keysCreated";

    /** Sum (mod 2^64) of the changes to the state digest: the digest of the live state. */
    public static final String STATE_DIGEST = "stateDigest";

    /** Subtasks that verified their restored state. */
    public static final String RESTORE_VERIFIED_SUBTASKS = "restoreVerifiedSubtasks";

    /** Keys whose restored values were read back and verified. */
    public static final String RESTORE_VERIFIED_KEYS = "restoreVerifiedKeys";

    /** Digest of the restored state as read back (sum over subtasks). */
    public static final String RESTORED_STATE_DIGEST = "restoredStateDigest";

    /**
     * Wall-clock time (epoch ms) at which the restored job processed its first record after the restore
     * (minimum over subtasks); only with {@code --records-after-restore}.
     */
    public static final String FIRST_RECORD_AFTER_RESTORE_MS = "firstRecordAfterRestoreMs";

    /**
     * Records the restored job processed after the restore, per wall-clock second (a histogram keyed by epoch
     * second, summed over subtasks; the REST API shows it as {@code {second=records, ...}}); only with {@code
     * --records-after-restore}.
     */
    public static final String RECORDS_AFTER_RESTORE_PER_SECOND = "recordsAfterRestorePerSecond";

    private JobAccumulators() {}
}
