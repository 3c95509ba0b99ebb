package dev.flinks3.bench.soak;

import java.util.List;

/**
 * What one soak run found, written by {@code run-soak} as JSON next to the contender's result and read by the
 * soak report.
 *
 * @param samples the readings over time ({@link SoakSample})
 * @param checkpoints every checkpoint that completed or failed, in id order
 * @param kills each TaskManager stopped by the fault schedule, with the restore that followed
 * @param expectedKeys keys the state must hold once every record is applied ({@link ExpectedState})
 * @param expectedDigest the state digest it must have, hex
 * @param liveDigest the job's state digest when it was cancelled (the accumulator), hex
 * @param sink what the FileSink's committed part files hold, or null if they were not read
 * @param uploadsAtEnd multipart uploads open at the server under the run's prefix after the job ended
 * @param taskManagerKill how a TaskManager was stopped, in words
 * @param error why the soak failed, empty if it did not
 * @param soakEndEpochMillis when the soak's job was cancelled (the final restore and checks follow), 0 if it
 *     was not
 */
public record SoakOutcome(
        List<SoakSample> samples,
        List<Checkpoint> checkpoints,
        List<Kill> kills,
        long expectedKeys,
        String expectedDigest,
        String liveDigest,
        SinkVerification sink,
        UploadsAtEnd uploadsAtEnd,
        String taskManagerKill,
        String error,
        long soakEndEpochMillis) {

    /**
     * One finished checkpoint.
     *
     * @param triggerEpochMillis when it was triggered
     * @param durationMs end-to-end duration, ms
     * @param failure the failure message, empty when it completed
     */
    public record Checkpoint(long id, boolean completed, long triggerEpochMillis, long durationMs, String failure) {}

    /**
     * One TaskManager stopped by the fault schedule and the job's recovery.
     *
     * @param epochMillis when it was stopped
     * @param checkpointInProgress the checkpoint the REST API showed in progress at that moment, 0 if none
     * @param restoredCheckpoint the checkpoint the job restored from, 0 if it did not restore
     * @param recoveryMs from the stop until every subtask ran again and verified its restored state, ms
     * @param verified whether every subtask verified the restored state against the digests recorded in it
     */
    public record Kill(
            long epochMillis, long checkpointInProgress, long restoredCheckpoint, long recoveryMs, boolean verified) {}

    /**
     * @param checkpointStreams open uploads of checkpoint files (every key but the sink's)
     * @param sinkFiles open uploads of the FileSink's part files
     * @param keys up to 20 of their keys
     */
    public record UploadsAtEnd(long checkpointStreams, long sinkFiles, List<String> keys) {}

    /** Whether the state and the sink verified and no restore failed. */
    public boolean verified() {
        return error.isEmpty()
                && expectedDigest.equals(liveDigest)
                && sink != null
                && sink.exactlyOnce()
                && kills.stream().allMatch(Kill::verified);
    }
}
