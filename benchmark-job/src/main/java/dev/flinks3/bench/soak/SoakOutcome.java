package dev.flinks3.bench.soak;

import dev.flinks3.bench.checkpoint.results.RestoreResult;
import java.util.List;

/**
 * What one soak run found, written by {@code run-soak} as JSON next to the contender's result (after every sample
 * too, so a run that is stopped keeps what it had) and read by the soak report.
 *
 * @param samples the readings of every Flink process over time ({@link SoakSample})
 * @param server the readings of the uploads open at the S3 server over time ({@link ServerSample})
 * @param jobs each job of the soak and what it verified
 * @param kills each TaskManager stopped by the fault schedule, with the restore that followed
 * @param uploadsAtEnd multipart uploads open at the server under the run's prefix after the jobs ended
 * @param taskManagerStop how a TaskManager was stopped, in words
 * @param error why the soak failed, empty if it did not
 * @param soakEndEpochMillis when the soak's jobs were cancelled (the final restores and checks follow), 0 if they
 *     were not
 */
public record SoakOutcome(
        List<SoakSample> samples,
        List<ServerSample> server,
        List<JobOutcome> jobs,
        List<Kill> kills,
        UploadsAtEnd uploadsAtEnd,
        String taskManagerStop,
        String error,
        long soakEndEpochMillis) {

    /**
     * One job of the soak.
     *
     * @param name its name in the report ({@code main}, {@code forst})
     * @param shape its parameters in words
     * @param parallelism its parallelism
     * @param checkpoints every checkpoint that completed or failed, in id order
     * @param expectedKeys keys the state must hold once every record is applied ({@link ExpectedState})
     * @param expectedDigest the state digest it must have, hex
     * @param liveDigest the job's state digest when it was cancelled (the accumulator), hex
     * @param finalRestore the restore of its last checkpoint after it was cancelled, or null if none ran
     * @param hasSink whether it wrote its records through a FileSink
     * @param sink what the FileSink's committed part files hold, or null if they were not read
     */
    public record JobOutcome(
            String name,
            String shape,
            int parallelism,
            List<Checkpoint> checkpoints,
            long expectedKeys,
            String expectedDigest,
            String liveDigest,
            RestoreResult finalRestore,
            boolean hasSink,
            SinkVerification sink) {

        /** Whether the state, the final restore and the sink hold every record exactly once. */
        public boolean verified() {
            return expectedDigest.equals(liveDigest)
                    && finalRestore != null
                    && finalRestore.verified()
                    && (!hasSink || (sink != null && sink.exactlyOnce()));
        }
    }

    /**
     * One finished checkpoint.
     *
     * @param triggerEpochMillis when it was triggered
     * @param durationMs end-to-end duration, ms
     * @param failure the failure message, empty when it completed
     */
    public record Checkpoint(long id, boolean completed, long triggerEpochMillis, long durationMs, String failure) {}

    /**
     * One TaskManager stopped by the fault schedule and the jobs' recovery.
     *
     * @param epochMillis when it was stopped
     * @param killedProcess the process killed ({@link SoakSample#process()}); empty when the TaskManager shared the
     *     soak's JVM (a MiniCluster's) and no process died
     * @param checkpointInProgress the main job's checkpoint the REST API showed in progress at that moment, 0 if none
     * @param restoredCheckpoints the checkpoint each job restored from, in job order, 0 where one did not restore
     * @param recoveryMs from the stop until every job ran again and every subtask verified its restored state, ms;
     *     -1 if they did not
     * @param verified whether every subtask of every job verified the restored state against the digests recorded in
     *     it
     * @param uploadsOpenAtServer the multipart uploads open at the server right after the stop, -1 if unknown
     */
    public record Kill(
            long epochMillis,
            String killedProcess,
            long checkpointInProgress,
            List<Long> restoredCheckpoints,
            long recoveryMs,
            boolean verified,
            long uploadsOpenAtServer) {}

    /**
     * @param checkpointStreams open uploads of checkpoint files (every key but the sinks')
     * @param sinkFiles open uploads of the FileSinks' part files
     * @param keys up to 20 of their keys
     */
    public record UploadsAtEnd(long checkpointStreams, long sinkFiles, List<String> keys) {}

    /** Whether every job verified and every stop was followed by a verified restore. */
    public boolean verified() {
        return error.isEmpty()
                && !jobs.isEmpty()
                && jobs.stream().allMatch(JobOutcome::verified)
                && kills.stream().allMatch(Kill::verified);
    }
}
