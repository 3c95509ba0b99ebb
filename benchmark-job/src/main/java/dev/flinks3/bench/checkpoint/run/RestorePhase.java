package dev.flinks3.bench.checkpoint.run;

import dev.flinks3.bench.checkpoint.job.EmittedState;
import dev.flinks3.bench.checkpoint.job.JobAccumulators;
import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.RecordGenerator;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import tools.jackson.databind.JsonNode;

/**
 * Restarts the job from the checkpointing phase's last completed checkpoint, measures the time until
 * every subtask is RUNNING, waits for every subtask to verify its restored state against the digests
 * recorded in that checkpoint, and cancels the job. With {@code --records-after-restore} the restored job
 * first processes that many more records (timed: to the first one, and records/s in two windows after all
 * subtasks run), and verifies once they are processed. Either way the state read back is also compared
 * with the state the source's records make, computed from the record generator alone ({@link EmittedState}).
 */
final class RestorePhase {

    private static final Duration RUNNING_POLL = Duration.ofMillis(20);
    private static final Duration VERIFY_POLL = Duration.ofMillis(250);
    private static final Duration VERIFY_TIMEOUT = Duration.ofMinutes(5);

    private final JobLauncher launcher;
    private final FlinkRestClient rest;
    private final RunEvents events;

    RestorePhase(JobLauncher launcher, FlinkRestClient rest, RunEvents events) {
        this.launcher = launcher;
        this.rest = rest;
        this.events = events;
    }

    RestoreResult run(CheckpointingPhase.Outcome previous, int parallelism) throws Exception {
        String path = previous.lastCompleted().externalPath();
        events.line("restoring checkpoint " + previous.lastCompleted().id() + " from " + path + " at parallelism "
                + parallelism);
        events.phase(RunEvents.RESTORE_START);
        long start = System.nanoTime();
        long submittedAtMs = System.currentTimeMillis();
        JobClient client = launcher.submit(parallelism, path);
        JobWatch watch = new JobWatch(rest, client.getJobID().toString());
        long deadline =
                start + launcher.parameters().checkpointTimeout().plusMinutes(2).toNanos();
        JsonNode job = watch.job();
        while (!JobWatch.allRunning(job)) {
            watch.requireAlive(job);
            if (System.nanoTime() > deadline) {
                throw new RunFailure("restored job " + watch.jobId() + " was not RUNNING after "
                        + Duration.ofNanos(System.nanoTime() - start).toSeconds() + " s");
            }
            Thread.sleep(RUNNING_POLL.toMillis());
            job = watch.job();
        }
        long running = System.nanoTime();
        events.phase(RunEvents.RESTORE_RUNNING);
        long submitToRunningMs = TimeUnit.NANOSECONDS.toMillis(running - start);
        long jobManagerRestoreMs = watch.jobManagerRestoreMs(job);
        // The REST API's cached job view shows RUNNING up to its refresh interval late; the subtasks' own RUNNING
        // timestamps (JobManager clock, the client's machine in local mode) do not lag.
        long lastRunningAt = watch.lastRunningTimestamp(job);
        long submitToAllRunningMs = lastRunningAt >= submittedAtMs ? lastRunningAt - submittedAtMs : 0;
        events.line(String.format(
                "restore: all %d subtasks RUNNING %.2f s after submission (JobManager: %.2f s)",
                parallelism, submitToRunningMs / 1000.0, jobManagerRestoreMs / 1000.0));

        Map<String, String> accumulators = awaitVerification(watch, parallelism);
        long verificationMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - running);
        client.cancel().get(VERIFY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        CheckpointingPhase.awaitState(watch, "CANCELED");

        JobParameters parameters = launcher.parameters();
        long recordsAfterRestore = parameters.recordsAfterRestore();
        long firstRecordMs = 0;
        double window1 = 0;
        double window2 = 0;
        if (recordsAfterRestore > 0) {
            long firstAt = watch.accumulator(accumulators, JobAccumulators.FIRST_RECORD_AFTER_RESTORE_MS);
            firstRecordMs = firstAt > 0 ? firstAt - submittedAtMs : 0;
            Map<Long, Long> perSecond =
                    RecordsPerSecond.parse(accumulators.get(JobAccumulators.RECORDS_AFTER_RESTORE_PER_SECOND));
            long runningAtMs = submittedAtMs + (submitToAllRunningMs > 0 ? submitToAllRunningMs : submitToRunningMs);
            long windowMs = RestoreResult.WINDOW_SECONDS * 1000L;
            window1 = RecordsPerSecond.rate(perSecond, runningAtMs, runningAtMs + windowMs);
            window2 = RecordsPerSecond.rate(perSecond, runningAtMs + windowMs, runningAtMs + 2 * windowMs);
            events.line(String.format(
                    "after the restore: first record %.2f s after submission; %.0f records/s in the first %d s after"
                            + " all RUNNING, %.0f in the next %d s",
                    firstRecordMs / 1000.0,
                    window1,
                    RestoreResult.WINDOW_SECONDS,
                    window2,
                    RestoreResult.WINDOW_SECONDS));
        }
        // What the source emitted, replayed from the generator: the records before the checkpoint (every one,
        // the checkpointing phase waits for a checkpoint after the last), then those after the restore.
        EmittedState[] emitted = EmittedState.after(
                RecordGenerator.of(parameters),
                parameters.totalRecords(),
                parameters.totalRecords() + recordsAfterRestore);
        long verifiedSubtasks = watch.accumulator(accumulators, JobAccumulators.RESTORE_VERIFIED_SUBTASKS);
        long verifiedKeys = watch.accumulator(accumulators, JobAccumulators.RESTORE_VERIFIED_KEYS);
        long restoredDigest = watch.accumulator(accumulators, JobAccumulators.RESTORED_STATE_DIGEST);
        boolean checkpointMatchesSource =
                emitted[0].digest() == previous.stateDigest() && emitted[0].keys() == previous.keysCreated();
        boolean verified = verifiedSubtasks == parallelism
                && checkpointMatchesSource
                && verifiedKeys == emitted[1].keys()
                && restoredDigest == emitted[1].digest()
                && (recordsAfterRestore > 0 || restoredDigest == previous.stateDigest());
        if (!checkpointMatchesSource) {
            events.line(String.format(
                    "the job's digest at the checkpoint %016x (%,d keys) differs from the source's records' %016x"
                            + " (%,d keys)",
                    previous.stateDigest(), previous.keysCreated(), emitted[0].digest(), emitted[0].keys()));
        }
        events.line(String.format(
                "restore %s: %,d keys in %d subtasks read back, digest %016x (the source's records make %016x)",
                verified ? "verified" : "NOT verified",
                verifiedKeys,
                verifiedSubtasks,
                restoredDigest,
                emitted[1].digest()));
        return new RestoreResult(
                previous.lastCompleted().id(),
                path,
                parallelism,
                submitToRunningMs,
                jobManagerRestoreMs,
                verificationMs,
                verifiedSubtasks,
                verifiedKeys,
                previous.keysCreated(),
                hex(restoredDigest),
                hex(previous.stateDigest()),
                verified,
                recordsAfterRestore,
                firstRecordMs,
                window1,
                window2,
                hex(emitted[1].digest()),
                emitted[1].keys(),
                parameters.parallelism(),
                submitToAllRunningMs);
    }

    private Map<String, String> awaitVerification(JobWatch watch, int parallelism) throws Exception {
        long deadline = System.nanoTime() + VERIFY_TIMEOUT.toNanos();
        while (true) {
            // A subtask whose state does not verify fails, and with it the job (no restarts).
            watch.requireAlive(watch.job());
            Map<String, String> accumulators = watch.accumulators();
            if (watch.accumulator(accumulators, JobAccumulators.RESTORE_VERIFIED_SUBTASKS) >= parallelism) {
                return accumulators;
            }
            if (System.nanoTime() > deadline) {
                throw new RunFailure(
                        "restored job " + watch.jobId() + " did not verify its state in " + VERIFY_TIMEOUT);
            }
            Thread.sleep(VERIFY_POLL.toMillis());
        }
    }

    static String hex(long digest) {
        return String.format("%016x", digest);
    }
}
