package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.checkpoint.results.RunConfiguration;
import java.util.Locale;
import java.util.Map;

/**
 * The shape of the job a report describes, as an operator sizes a TaskManager: subtasks in the contender's one
 * TaskManager, state per subtask, the kind of checkpoint and RocksDB's transfer threads. The same job parameters
 * can describe a toy (a few MB per subtask, full checkpoints of one file each) or a production job (a GB per
 * subtask, incremental checkpoints of many SST files); this sentence says which one a report measured.
 */
final class JobShape {

    private JobShape() {}

    /**
     * One sentence, e.g. "Shape: 4 subtasks in one TaskManager (4 slots), 536.9 MB of state per subtask at the
     * end, RocksDB with incremental checkpoints, 8 transfer threads per subtask (32 files in flight at most)."
     *
     * @return the sentence, or empty when the results recorded no parallelism
     */
    static String describe(RunConfiguration conf) {
        Map<String, String> parameters = conf.jobParameters();
        int parallelism = intOr(parameters.get("parallelism"), 0);
        if (parallelism <= 0) {
            return "";
        }
        int slots = Math.max(parallelism, conf.restoreParallelism());
        String backend = parameters.getOrDefault("state-backend", "rocksdb");
        boolean forst = "forst".equals(backend);
        boolean incremental = forst || Boolean.parseBoolean(parameters.getOrDefault("incremental", "false"));
        StringBuilder shape = new StringBuilder(String.format(
                Locale.ROOT,
                "Shape: %d subtask%s in one TaskManager (%d slot%s), %s of state per subtask at the end, %s with %s "
                        + "checkpoints",
                parallelism,
                parallelism == 1 ? "" : "s",
                slots,
                slots == 1 ? "" : "s",
                MarkdownReport.mb(conf.expectedStateBytes() / parallelism) + " MB",
                forst ? "ForSt" : "RocksDB",
                incremental ? "incremental" : "full"));
        if (!forst) {
            int threads = intOr(parameters.get("rocksdb-transfer-threads"), 0);
            if (threads > 0) {
                shape.append(String.format(
                        Locale.ROOT,
                        ", %d transfer thread%s per subtask (%d files in flight at most)",
                        threads,
                        threads == 1 ? "" : "s",
                        threads * parallelism));
            }
        }
        return shape.append('.').toString();
    }

    private static int intOr(String value, int fallback) {
        try {
            return value == null ? fallback : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
