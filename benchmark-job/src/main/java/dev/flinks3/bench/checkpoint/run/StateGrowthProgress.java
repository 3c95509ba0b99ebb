package dev.flinks3.bench.checkpoint.run;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.stats.Units;
import java.util.Locale;

/** Formats the state-growth progress line from the job's accumulators. Stateless. */
final class StateGrowthProgress {

    private StateGrowthProgress() {}

    static String line(JobParameters parameters, double elapsedSeconds, long records, long keys) {
        return String.format(
                Locale.ROOT,
                "progress %.0f s: %,d of %,d records, %,d of %,d keys, state %s of %s",
                elapsedSeconds,
                records,
                parameters.totalRecords(),
                keys,
                parameters.expectedKeys(),
                Units.formatMegabytes(keys * parameters.valueSizeBytes()),
                Units.formatMegabytes(parameters.expectedStateBytes()));
    }
}
