package dev.flinks3.bench.checkpoint.run;

import dev.flinks3.bench.checkpoint.job.JobAccumulators;
import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import dev.flinks3.bench.checkpoint.stats.CheckpointStatsCollector;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.core.execution.JobClient;
import tools.jackson.databind.JsonNode;

/**
 * Runs the job until the source has emitted all its records and a checkpoint taken after the last
 * record has completed, then cancels it (the checkpoint is retained). While it waits it reports every
 * checkpoint and, every few seconds, the state's growth.
 */
final class CheckpointingPhase {

    private static final Duration POLL_INTERVAL = Duration.ofMillis(500);
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(5);
    private static final Duration CANCEL_TIMEOUT = Duration.ofMinutes(2);

    /** What the phase leaves for the restore and the report. */
    record Outcome(
            String jobId,
            long startTimestamp,
            long recordsProcessed,
            long keysCreated,
            long stateDigest,
            double seconds,
            double processingSeconds,
            List<CheckpointStats> checkpoints,
            CheckpointStats lastCompleted) {}

    private final JobLauncher launcher;
    private final FlinkRestClient rest;
    private final RunEvents events;

    CheckpointingPhase(JobLauncher launcher, FlinkRestClient rest, RunEvents events) {
        this.launcher = launcher;
        this.rest = rest;
        this.events = events;
    }

    Outcome run() throws Exception {
        JobParameters parameters = launcher.parameters();
        events.phase(RunEvents.CHECKPOINTING_START);
        long start = System.nanoTime();
        JobClient client = launcher.submit(parameters.parallelism(), null);
        JobWatch watch = new JobWatch(rest, client.getJobID().toString());
        events.line("submitted job " + watch.jobId() + ": " + parameters);
        AtomicBoolean cancelled = new AtomicBoolean();
        CheckpointStatsCollector collector = new CheckpointStatsCollector(rest, watch.jobId(), checkpoint -> {
            // A checkpoint that fails once the job is cancelled is not the filesystem's failure: not reported.
            if (!cancelled.get() || checkpoint.completed()) {
                events.line(CheckpointStatsCollector.describe(checkpoint));
            }
        });
        // Generous: the source needs `duration`, the last checkpoint at most `timeout` after the next trigger.
        long deadline = start
                + parameters
                        .duration()
                        .multipliedBy(3)
                        .plus(parameters.checkpointTimeout())
                        .plus(parameters.checkpointInterval())
                        .plusMinutes(1)
                        .toNanos();
        long nextProgress = start + PROGRESS_INTERVAL.toNanos();
        long checkpointAfterLastRecord = -1;
        double processingSeconds = 0;
        long startTimestamp = 0;
        Map<String, String> accumulators;
        while (true) {
            Thread.sleep(POLL_INTERVAL.toMillis());
            JsonNode job = watch.job();
            watch.requireAlive(job);
            startTimestamp = job.path("start-time").asLong(0);
            collector.poll();
            accumulators = watch.accumulators();
            long records = watch.accumulator(accumulators, JobAccumulators.RECORDS_PROCESSED);
            long now = System.nanoTime();
            if (now >= nextProgress) {
                events.line(StateGrowthProgress.line(
                        parameters,
                        (now - start) / 1e9,
                        records,
                        watch.accumulator(accumulators, JobAccumulators.KEYS_CREATED)));
                nextProgress = now + PROGRESS_INTERVAL.toNanos();
            }
            if (checkpointAfterLastRecord < 0 && records >= parameters.totalRecords()) {
                // Every record is processed by now. Once the REST API's view is newer than now, any checkpoint
                // with a higher id than those it shows is triggered after the last record.
                processingSeconds = (now - start) / 1e9;
                awaitFreshView();
                collector.poll();
                checkpointAfterLastRecord = collector.highestIdSeen() + 1;
                events.line(String.format(
                        "all %,d records processed; waiting for checkpoint %d or later",
                        records, checkpointAfterLastRecord));
            }
            long lastCompletedId =
                    collector.latestCompleted().map(CheckpointStats::id).orElse(0L);
            if (checkpointAfterLastRecord > 0 && lastCompletedId >= checkpointAfterLastRecord) {
                break;
            }
            if (now > deadline) {
                throw new RunFailure("job " + watch.jobId() + " did not complete a checkpoint after its last record in "
                        + Duration.ofNanos(now - start).toSeconds() + " s (" + records + " of "
                        + parameters.totalRecords() + " records processed)");
            }
        }
        cancelled.set(true);
        client.cancel().get(CANCEL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        awaitState(watch, "CANCELED");
        double seconds = (System.nanoTime() - start) / 1e9;
        events.phase(RunEvents.CHECKPOINTING_END);
        // A checkpoint may have completed between the last poll and the cancellation, and it is then the one
        // retained: read the history once the REST API's view is newer than the cancellation.
        awaitFreshView();
        collector.poll();
        CheckpointStats last = collector.latestCompleted().orElseThrow();
        // A checkpoint after the last completed one was aborted by the cancellation, not by the filesystem.
        List<CheckpointStats> checkpoints = collector.checkpoints().stream()
                .filter(c -> c.id() <= last.id())
                .toList();
        return new Outcome(
                watch.jobId(),
                startTimestamp,
                watch.accumulator(accumulators, JobAccumulators.RECORDS_PROCESSED),
                watch.accumulator(accumulators, JobAccumulators.KEYS_CREATED),
                watch.accumulator(accumulators, JobAccumulators.STATE_DIGEST),
                seconds,
                processingSeconds,
                checkpoints,
                last);
    }

    /**
     * Waits until what the REST API shows is newer than the moment of the call: its handlers serve cached
     * views of a job's execution graph and checkpoint statistics for up to the refresh interval.
     */
    private void awaitFreshView() throws IOException, InterruptedException {
        Thread.sleep(rest.refreshIntervalMs() + POLL_INTERVAL.toMillis());
    }

    static void awaitState(JobWatch watch, String state) throws Exception {
        long deadline = System.nanoTime() + CANCEL_TIMEOUT.toNanos();
        while (!state.equals(watch.state())) {
            if (System.nanoTime() > deadline) {
                throw new RunFailure("job " + watch.jobId() + " did not reach " + state + " in " + CANCEL_TIMEOUT);
            }
            Thread.sleep(POLL_INTERVAL.toMillis());
        }
    }
}
