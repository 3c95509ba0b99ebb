package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import dev.flinks3.bench.checkpoint.results.RunResult;
import dev.flinks3.bench.checkpoint.results.S3Traffic;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import dev.flinks3.bench.checkpoint.stats.CheckpointSummary;
import dev.flinks3.bench.checkpoint.stats.Units;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's figures of one contender's run, derived from its {@link ContenderResult}.
 *
 * @param label the run's column title: the contender's name, with the round when the contender ran more than once
 * @param result the run as recorded
 * @param summary its checkpoints' summary (empty when the run produced no figures)
 * @param index how many runs of the same contender come before this one (0 for the first): its marker and shade
 */
public record RunFigures(String label, ContenderResult result, CheckpointSummary summary, int index) {

    /** Figures of every run, labelled with its round where its contender has more than one run. */
    public static List<RunFigures> of(List<ContenderResult> results) {
        Map<String, Integer> runsPerContender = new HashMap<>();
        results.forEach(r -> runsPerContender.merge(r.plugin().name(), 1, Integer::sum));
        Map<String, Integer> seen = new HashMap<>();
        List<RunFigures> figures = new ArrayList<>();
        for (ContenderResult r : results) {
            String name = r.plugin().name();
            int index = seen.merge(name, 1, Integer::sum) - 1;
            figures.add(new RunFigures(
                    runsPerContender.get(name) > 1 ? name + " #" + r.round() : name,
                    r,
                    CheckpointSummary.of(r.run() == null ? List.of() : r.run().checkpoints()),
                    index));
        }
        return figures;
    }

    public String contender() {
        return result.plugin().name();
    }

    /** The completed and failed checkpoints of the run, by id; empty if it recorded none. */
    public List<CheckpointStats> checkpoints() {
        return result.run() == null ? List.of() : result.run().checkpoints();
    }

    /** Whether at least one checkpoint completed: the run has checkpoint figures. */
    public boolean hasCheckpointFigures() {
        return summary.completed() > 0;
    }

    /**
     * Seconds from the job's start to the checkpoint's trigger, both on the JobManager's clock; from the first
     * checkpoint's trigger for results that did not record the job's start.
     */
    public double secondsSinceStart(CheckpointStats checkpoint) {
        long start = result.run() == null ? 0 : result.run().startTimestamp();
        if (start <= 0) {
            start = checkpoints().stream()
                    .mapToLong(CheckpointStats::triggerTimestamp)
                    .filter(t -> t > 0)
                    .min()
                    .orElse(checkpoint.triggerTimestamp());
        }
        return (checkpoint.triggerTimestamp() - start) / 1000.0;
    }

    /** The restore, or null if the run did not get there. */
    public RestoreResult restore() {
        RunResult run = result.run();
        return run == null ? null : run.restore();
    }

    /** Whether the run's restore time was measured (it restored, and the JobManager's timestamps were read). */
    public boolean hasRestoreTime() {
        return restoreMs() > 0;
    }

    /** Restore time: JobManager receipt of the job until every subtask RUNNING, ms; 0 without a restore. */
    public long restoreMs() {
        return restore() == null ? 0 : restore().jobManagerRestoreMs();
    }

    /** Bytes GetObject requests read during the restore, 0 if not measured. */
    public long restoreBytesRead() {
        S3Traffic traffic = result.s3Traffic().get("restore");
        return traffic == null ? 0 : traffic.bytesRead();
    }

    /** Restore read throughput, MB/s; 0 if not measured. */
    public double restoreMbPerSecond() {
        return Units.megabytesPerSecond(restoreBytesRead(), restoreMs());
    }
}
