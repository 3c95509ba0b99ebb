package dev.flinks3.bench.checkpoint.results;

/**
 * The restore phase: the job restarted from its last completed checkpoint.
 *
 * @param checkpointId the checkpoint restored
 * @param checkpointPath its external path
 * @param parallelism the restored job's parallelism
 * @param submitToRunningMs from the submission call until every subtask was seen RUNNING (client clock)
 * @param jobManagerRestoreMs from the JobManager receiving the job until the last subtask switched to
 *     RUNNING (JobManager timestamps); 0 if the REST API did not report them
 * @param verificationMs from all subtasks RUNNING until every subtask reported its state verified
 * @param verifiedSubtasks subtasks that verified their restored state
 * @param verifiedKeys keys read back and verified
 * @param expectedKeys keys the job held at the checkpoint
 * @param restoredDigest digest of the state read back (hex)
 * @param expectedDigest digest of the state at the checkpoint (hex)
 * @param verified whether every subtask verified, all keys were found and the digests are equal (and, with
 *     {@code sourceDigest}, equal to what the source emitted)
 * @param recordsAfterRestore records the restored job processed after the restore before it verified its state
 *     ({@code --records-after-restore}); 0 when none, and then the fields below are 0
 * @param submitToFirstRecordMs from the submission call until the first record after the restore was processed
 *     (the job's wall clock against the client's, one machine)
 * @param recordsPerSecondWindow1 records/s processed in the first {@value #WINDOW_SECONDS} s after every subtask
 *     was RUNNING
 * @param recordsPerSecondWindow2 records/s in the {@value #WINDOW_SECONDS} s after that
 * @param sourceDigest digest (hex) of the state the source's records {@code 0 .. n-1} make, computed from the
 *     record generator alone ({@code n}: the records before the checkpoint plus those after the restore), which
 *     the state read back must equal; null in results written before it was computed
 * @param sourceKeys keys those records create
 * @param checkpointParallelism the parallelism of the job that wrote the checkpoint (a rescale when it differs
 *     from {@code parallelism}); 0 in results written before it was recorded
 * @param submitToAllRunningMs from the submission call (client clock) until the last subtask's RUNNING timestamp
 *     as the REST API reports it (JobManager clock; one machine in local mode), without the lag of the REST
 *     API's cached job view that {@code submitToRunningMs} has; 0 if not recorded
 */
public record RestoreResult(
        long checkpointId,
        String checkpointPath,
        int parallelism,
        long submitToRunningMs,
        long jobManagerRestoreMs,
        long verificationMs,
        long verifiedSubtasks,
        long verifiedKeys,
        long expectedKeys,
        String restoredDigest,
        String expectedDigest,
        boolean verified,
        long recordsAfterRestore,
        long submitToFirstRecordMs,
        double recordsPerSecondWindow1,
        double recordsPerSecondWindow2,
        String sourceDigest,
        long sourceKeys,
        int checkpointParallelism,
        long submitToAllRunningMs) {

    /** Length of each of the two windows after the restore whose records/s are reported, in seconds. */
    public static final int WINDOW_SECONDS = 10;

    /** A restore without records after it and without a check against the source. */
    public RestoreResult(
            long checkpointId,
            String checkpointPath,
            int parallelism,
            long submitToRunningMs,
            long jobManagerRestoreMs,
            long verificationMs,
            long verifiedSubtasks,
            long verifiedKeys,
            long expectedKeys,
            String restoredDigest,
            String expectedDigest,
            boolean verified) {
        this(
                checkpointId,
                checkpointPath,
                parallelism,
                submitToRunningMs,
                jobManagerRestoreMs,
                verificationMs,
                verifiedSubtasks,
                verifiedKeys,
                expectedKeys,
                restoredDigest,
                expectedDigest,
                verified,
                0,
                0,
                0,
                0,
                null,
                0,
                0,
                0);
    }
}
