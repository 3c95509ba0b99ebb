package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import dev.flinks3.bench.checkpoint.results.RunResult;
import dev.flinks3.bench.checkpoint.results.S3Traffic;
import dev.flinks3.bench.checkpoint.stats.CheckpointSummary;
import dev.flinks3.bench.checkpoint.stats.Units;
import java.util.List;

/**
 * The report's figures of one contender's run, derived from its {@link ContenderResult}.
 *
 * @param label the run's column title: the contender's name, with the round when there are several
 * @param result the run as recorded
 * @param summary its checkpoints' summary (empty when the run produced no figures)
 */
public record RunFigures(String label, ContenderResult result, CheckpointSummary summary) {

    /** Figures of every run, labelled with rounds when {@code rounds > 1}. */
    public static List<RunFigures> of(List<ContenderResult> results, int rounds) {
        return results.stream().map(r -> new RunFigures(
                rounds > 1 ? r.plugin().name() + " #" + r.round() : r.plugin().name(), r,
                CheckpointSummary.of(r.run() == null ? List.of() : r.run().checkpoints()))).toList();
    }

    public String contender() {
        return result.plugin().name();
    }

    /** The restore, or null if the run did not get there. */
    public RestoreResult restore() {
        RunResult run = result.run();
        return run == null ? null : run.restore();
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
