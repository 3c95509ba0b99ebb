package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.Machine;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import dev.flinks3.bench.checkpoint.results.RunConfiguration;
import dev.flinks3.bench.checkpoint.results.RunResult;
import dev.flinks3.bench.checkpoint.results.S3Traffic;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import dev.flinks3.bench.checkpoint.stats.CheckpointStatsParser;
import dev.flinks3.bench.checkpoint.stats.RestFixtures;
import dev.flinks3.bench.common.PluginInfo;
import java.util.List;
import java.util.Map;

/** Results built from the recorded checkpoints, with durations scaled per contender. */
final class ResultsSamples {

    static final long RECORDS = 3000;
    static final String DIGEST = "c5917f1e3b3c1b3a";
    /** The recorded job's {@code start-time} (job.json). */
    static final long JOB_START = 1796036630789L;

    private ResultsSamples() {}

    /** A contender whose checkpoints took {@code slowdown} times as long as recorded, restore {@code restoreMs}. */
    static ContenderResult run(String name, int round, double slowdown, long restoreMs, String digest) {
        List<CheckpointStats> checkpoints =
                CheckpointStatsParser.history(RestFixtures.json("checkpoints.json")).stream()
                        .map(c -> new CheckpointStats(
                                c.id(),
                                c.status(),
                                c.type(),
                                c.triggerTimestamp(),
                                c.latestAckTimestamp(),
                                c.stateSizeBytes(),
                                c.checkpointedSizeBytes(),
                                Math.round(c.endToEndDurationMs() * slowdown),
                                c.numSubtasks(),
                                c.numAcknowledgedSubtasks(),
                                c.externalPath(),
                                c.failureMessage(),
                                c.vertices()))
                        .toList();
        RestoreResult restore = new RestoreResult(
                4, "s3://b/chk-4", 2, restoreMs + 900, restoreMs, 300, 2, 2000, 2000, digest, digest, true);
        return new ContenderResult(
                new PluginInfo(name, name + ".jar", "1.0", "org.example.S3FileSystem"),
                round,
                new RunResult(
                        "job", JOB_START, RECORDS, RECORDS, 2000, digest, 30.0, 25.0 * slowdown, checkpoints, restore),
                "",
                20.0 * slowdown,
                500_000_000L,
                Map.of("restore", new S3Traffic(12, Map.of("GetObject", 5L), 94_400_618L)),
                8.0 * slowdown);
    }

    static ContenderResult failed(String name, String error) {
        return new ContenderResult(new PluginInfo(name, name + ".jar", "", ""), 1, null, error, 3.0, 0, Map.of(), 0);
    }

    static BenchmarkResults results(List<String> contenders, int rounds, List<ContenderResult> runs) {
        return new BenchmarkResults(
                "2026-11-30T10:00:00Z",
                new Machine("Linux 6", "amd64", 2, 24_000_000_000L, "17"),
                new RunConfiguration(
                        Map.of("numKeys", "2000"),
                        2000,
                        RECORDS,
                        65_536_000L,
                        2,
                        "wan",
                        "http://127.0.0.1:9000",
                        "flink-benchmark",
                        rounds,
                        contenders,
                        "java -jar x.jar compare",
                        "pinned to CPU 1; objects on tmpfs"),
                runs);
    }
}
