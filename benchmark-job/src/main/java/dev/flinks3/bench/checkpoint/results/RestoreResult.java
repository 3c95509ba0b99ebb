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
 * @param verified whether every subtask verified, all keys were found and the digests are equal
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
        boolean verified) {}
