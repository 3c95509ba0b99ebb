package dev.flinks3.bench.checkpoint.rest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small client of a JobManager's REST API (the endpoints documented in Flink's "REST API" page),
 * returning the JSON as Jackson trees; the stats and run classes pick the fields they need.
 * Thread-safe. Does not retry: callers poll.
 */
public final class FlinkRestClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final long DEFAULT_REFRESH_INTERVAL_MS = 3_000;

    private final URI base;
    private final HttpClient http;
    private final JsonMapper json = JsonMapper.shared();

    /** @param base the REST address, e.g. {@code http://localhost:8081} */
    public FlinkRestClient(URI base) {
        String text = Objects.requireNonNull(base, "base").toString();
        this.base = URI.create(text.endsWith("/") ? text : text + "/");
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    /** The REST address this client talks to. */
    public URI base() {
        return base;
    }

    /**
     * GETs a path relative to the REST address and parses the body.
     *
     * @param path e.g. {@code jobs/<id>/checkpoints}
     * @throws IOException if the request fails or the status is not 2xx (the message has the body)
     */
    public JsonNode get(String path) throws IOException {
        return send(HttpRequest.newBuilder(base.resolve(path))
                .timeout(TIMEOUT)
                .GET()
                .build());
    }

    /** {@code GET /jobs/:jobid}: state, timestamps and vertices with per-state task counts. */
    public JsonNode job(String jobId) throws IOException {
        return get("jobs/" + jobId);
    }

    /** {@code GET /jobs/:jobid/checkpoints}: counts, summary, latest and history. */
    public JsonNode checkpoints(String jobId) throws IOException {
        return get("jobs/" + jobId + "/checkpoints");
    }

    /** {@code GET /jobs/:jobid/checkpoints/details/:checkpointid}: one checkpoint with per-vertex figures. */
    public JsonNode checkpointDetails(String jobId, long checkpointId) throws IOException {
        return get("jobs/" + jobId + "/checkpoints/details/" + checkpointId);
    }

    /** {@code GET /jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid}: per-subtask figures. */
    public JsonNode checkpointSubtasks(String jobId, long checkpointId, String vertexId) throws IOException {
        return get("jobs/" + jobId + "/checkpoints/details/" + checkpointId + "/subtasks/" + vertexId);
    }

    /** {@code GET /jobs/:jobid/vertices/:vertexid/subtasktimes}: when each subtask entered each state. */
    public JsonNode subtaskTimes(String jobId, String vertexId) throws IOException {
        return get("jobs/" + jobId + "/vertices/" + vertexId + "/subtasktimes");
    }

    /** {@code GET /jobs/:jobid/exceptions}: the job's failure history. */
    public JsonNode exceptions(String jobId) throws IOException {
        return get("jobs/" + jobId + "/exceptions");
    }

    /**
     * The job's user accumulators by name ({@code GET /jobs/:jobid/accumulators}), each summed over
     * subtasks by Flink, as the strings the REST API returns.
     */
    public Map<String, String> accumulators(String jobId) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        for (JsonNode accumulator : get("jobs/" + jobId + "/accumulators").path("user-task-accumulators")) {
            values.put(
                    accumulator.path("name").asString(""),
                    accumulator.path("value").asString(""));
        }
        return values;
    }

    /**
     * How long the REST API may serve a cached view of a job ({@code GET /config}, {@code refresh-interval},
     * which is also the default of the execution-graph and checkpoint-statistics caches), ms.
     */
    public long refreshIntervalMs() throws IOException {
        return get("config").path("refresh-interval").asLong(DEFAULT_REFRESH_INTERVAL_MS);
    }

    /** {@code PATCH /jobs/:jobid?mode=cancel}: asks the JobManager to cancel the job. */
    public void cancel(String jobId) throws IOException {
        send(HttpRequest.newBuilder(base.resolve("jobs/" + jobId + "?mode=cancel"))
                .timeout(TIMEOUT)
                .method("PATCH", HttpRequest.BodyPublishers.noBody())
                .build());
    }

    private JsonNode send(HttpRequest request) throws IOException {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while calling " + request.method() + " " + request.uri(), e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new IOException("Flink REST " + request.method() + " " + request.uri() + " answered "
                    + response.statusCode() + ": " + response.body());
        }
        String body = response.body();
        return body == null || body.isBlank() ? json.missingNode() : json.readTree(body);
    }
}
