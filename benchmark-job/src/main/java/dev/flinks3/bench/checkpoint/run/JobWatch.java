package dev.flinks3.bench.checkpoint.run;

import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Reads one job's status, task states, accumulators and failure through the REST API, for the
 * phases that wait on them and for reports of jobs run elsewhere. Stateless apart from the job id.
 */
public final class JobWatch {

    private static final Set<String> TERMINAL = Set.of("FAILED", "CANCELED", "FINISHED", "SUSPENDED");

    private final FlinkRestClient rest;
    private final String jobId;

    public JobWatch(FlinkRestClient rest, String jobId) {
        this.rest = rest;
        this.jobId = jobId;
    }

    public String jobId() {
        return jobId;
    }

    /** {@code GET /jobs/:jobid}. */
    public JsonNode job() throws IOException {
        return rest.job(jobId);
    }

    /**
     * Throws if the job has ended (failed, cancelled, finished): the job never ends on its own.
     *
     * @throws RunFailure with the job's root exception
     */
    public void requireAlive(JsonNode job) throws RunFailure, IOException {
        String state = job.path("state").asString("");
        if (TERMINAL.contains(state)) {
            throw new RunFailure("job " + jobId + " is " + state + rootCause());
        }
    }

    /** Whether every subtask of every vertex is RUNNING. */
    static boolean allRunning(JsonNode job) {
        int vertices = 0;
        for (JsonNode vertex : job.path("vertices")) {
            vertices++;
            if (vertex.path("tasks").path("RUNNING").asInt(0)
                    != vertex.path("parallelism").asInt(-1)) {
                return false;
            }
        }
        return vertices > 0;
    }

    /** A user accumulator summed over subtasks; 0 while no subtask reported it. */
    public long accumulator(Map<String, String> accumulators, String name) {
        String value = accumulators.get(name);
        return value == null || value.isEmpty() ? 0 : Long.parseLong(value.trim());
    }

    /** The job's user accumulators by name. */
    public Map<String, String> accumulators() throws IOException {
        return rest.accumulators(jobId);
    }

    void cancel() throws IOException {
        rest.cancel(jobId);
    }

    String state() throws IOException {
        return job().path("state").asString("");
    }

    /**
     * From the JobManager's receipt of the job (its INITIALIZING timestamp) to the last subtask's
     * switch to RUNNING ({@code /vertices/:id/subtasktimes}); 0 if either is missing.
     *
     * @param job the job's {@code /jobs/:jobid} page, read once all subtasks run
     */
    public long jobManagerRestoreMs(JsonNode job) throws IOException {
        long received = job.path("timestamps").path("INITIALIZING").asLong(0);
        long lastRunning = lastRunningTimestamp(job);
        return received > 0 && lastRunning >= received ? lastRunning - received : 0;
    }

    /**
     * When the last subtask switched to RUNNING, epoch ms of the JobManager's clock ({@code
     * /vertices/:id/subtasktimes}); 0 if no subtask reported it.
     *
     * @param job the job's {@code /jobs/:jobid} page, read once all subtasks run
     */
    public long lastRunningTimestamp(JsonNode job) throws IOException {
        long lastRunning = 0;
        for (JsonNode vertex : job.path("vertices")) {
            JsonNode times = rest.subtaskTimes(jobId, vertex.path("id").asString(""));
            for (JsonNode subtask : times.path("subtasks")) {
                lastRunning = Math.max(
                        lastRunning, subtask.path("timestamps").path("RUNNING").asLong(0));
            }
        }
        return lastRunning;
    }

    /** {@code ": <first line of the newest exception>"}, or empty if the job recorded none. */
    public String rootCause() throws IOException {
        JsonNode entries = rest.exceptions(jobId).path("exceptionHistory").path("entries");
        if (entries.isEmpty()) {
            return "";
        }
        String trace = entries.get(0).path("stacktrace").asString("");
        int causeAt = trace.lastIndexOf("Caused by: ");
        String cause = causeAt >= 0 ? trace.substring(causeAt + "Caused by: ".length()) : trace;
        int lineEnd = cause.indexOf('\n');
        return ": " + (lineEnd >= 0 ? cause.substring(0, lineEnd) : cause).trim();
    }
}
