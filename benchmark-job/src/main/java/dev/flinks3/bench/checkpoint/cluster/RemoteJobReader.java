package dev.flinks3.bench.checkpoint.cluster;

import dev.flinks3.bench.checkpoint.job.JobAccumulators;
import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.PluginMetricsAccumulators;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.RestoreResult;
import dev.flinks3.bench.checkpoint.results.RunResult;
import dev.flinks3.bench.checkpoint.run.JobWatch;
import dev.flinks3.bench.checkpoint.stats.CheckpointStatsCollector;
import dev.flinks3.bench.common.PluginInfo;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * Reads what a {@code LargeStateGeneratorJob} did on any cluster, running or finished, from its
 * JobManager's REST API: the checkpoints, the accumulators (records, keys, state digest), the
 * parameters the job recorded in its configuration, and, if it was restored, the restore and its
 * verification. For jobs started by the Kubernetes operator or {@code flink run} without the runner.
 */
public final class RemoteJobReader {

    private final FlinkRestClient rest;
    private final String jobId;

    public RemoteJobReader(FlinkRestClient rest, String jobId) {
        this.rest = rest;
        this.jobId = jobId;
    }

    /**
     * The job's parameters as it recorded them ({@code /jobs/:jobid/config}, {@code user-config}), if it did.
     *
     * @throws IOException if the REST API cannot be read
     */
    public Optional<JobParameters> parameters() throws IOException {
        JsonNode userConfig =
                rest.get("jobs/" + jobId + "/config").path("execution-config").path("user-config");
        Map<String, String> map = new LinkedHashMap<>();
        userConfig.properties().forEach(e -> map.put(e.getKey(), e.getValue().asString("")));
        if (map.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(JobParameters.fromMap(map));
    }

    /**
     * What the job did so far.
     *
     * @param label the name the run gets in the report (e.g. the deployment's name)
     * @param lines receives one line per checkpoint
     * @throws IOException if the REST API cannot be read
     */
    public ContenderResult read(String label, Consumer<String> lines) throws IOException {
        JobWatch watch = new JobWatch(rest, jobId);
        JsonNode job = watch.job();
        CheckpointStatsCollector collector = new CheckpointStatsCollector(
                rest, jobId, checkpoint -> lines.accept(CheckpointStatsCollector.describe(checkpoint)));
        collector.poll();
        Map<String, String> accumulators = watch.accumulators();
        long totalRecords = parameters().map(JobParameters::totalRecords).orElse(0L);
        RunResult run = new RunResult(
                jobId,
                job.path("start-time").asLong(0),
                totalRecords,
                watch.accumulator(accumulators, JobAccumulators.RECORDS_PROCESSED),
                watch.accumulator(accumulators, JobAccumulators.KEYS_CREATED),
                String.format("%016x", watch.accumulator(accumulators, JobAccumulators.STATE_DIGEST)),
                job.path("duration").asLong(0) / 1000.0,
                0,
                collector.checkpoints(),
                restore(watch, job, accumulators));
        String state = job.path("state").asString("");
        String error = "FAILED".equals(state) ? "job " + jobId + " is FAILED" + watch.rootCause() : "";
        return new ContenderResult(new PluginInfo(label, "", "", ""), 1, run, error, 0, 0, Map.of(), 0)
                .withPluginMetrics(PluginMetricsAccumulators.read(accumulators));
    }

    /** The restore this job started with, or null if it started fresh. */
    private RestoreResult restore(JobWatch watch, JsonNode job, Map<String, String> accumulators) throws IOException {
        JsonNode restored = rest.checkpoints(jobId).path("latest").path("restored");
        if (restored.isMissingNode() || restored.isNull()) {
            return null;
        }
        int parallelism = 0;
        for (JsonNode vertex : job.path("vertices")) {
            parallelism = Math.max(parallelism, vertex.path("parallelism").asInt(0));
        }
        long verifiedSubtasks = watch.accumulator(accumulators, JobAccumulators.RESTORE_VERIFIED_SUBTASKS);
        long verifiedKeys = watch.accumulator(accumulators, JobAccumulators.RESTORE_VERIFIED_KEYS);
        String digest = String.format("%016x", watch.accumulator(accumulators, JobAccumulators.RESTORED_STATE_DIGEST));
        // A subtask whose state differs from its checkpoint's digests fails the job; one that matches counts itself.
        return new RestoreResult(
                restored.path("id").asLong(0),
                restored.path("external_path").asString(""),
                parallelism,
                0,
                watch.jobManagerRestoreMs(job),
                0,
                verifiedSubtasks,
                verifiedKeys,
                verifiedKeys,
                digest,
                digest,
                parallelism > 0 && verifiedSubtasks == parallelism);
    }
}
