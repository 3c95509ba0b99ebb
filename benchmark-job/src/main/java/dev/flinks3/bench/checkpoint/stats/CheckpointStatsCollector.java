package dev.flinks3.bench.checkpoint.stats;

import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * Follows one job's checkpoints through the REST API. Each {@link #poll()} reads the checkpoint
 * history and, for every checkpoint that completed or failed since, its per-vertex and per-subtask
 * details, and hands it to a listener. Polling often enough keeps every checkpoint even though the
 * JobManager keeps only the last {@code web.checkpoints.history} entries. Not thread-safe.
 */
public final class CheckpointStatsCollector {

    private final FlinkRestClient rest;
    private final String jobId;
    private final Consumer<CheckpointStats> listener;
    private final TreeMap<Long, CheckpointStats> finished = new TreeMap<>();
    private Map<String, String> vertexNames;
    private long highestIdSeen;

    /**
     * @param listener receives each checkpoint once, when it has completed or failed ({@link #describe}
     *     makes a line of it)
     */
    public CheckpointStatsCollector(FlinkRestClient rest, String jobId, Consumer<CheckpointStats> listener) {
        this.rest = rest;
        this.jobId = jobId;
        this.listener = listener;
    }

    /**
     * Reads the checkpoint history and the details of newly finished checkpoints.
     *
     * @throws IOException if the REST API cannot be read
     */
    public void poll() throws IOException {
        for (CheckpointStats checkpoint : CheckpointStatsParser.history(rest.checkpoints(jobId))) {
            highestIdSeen = Math.max(highestIdSeen, checkpoint.id());
            if (checkpoint.terminal() && !finished.containsKey(checkpoint.id())) {
                CheckpointStats detailed = checkpoint.withVertices(details(checkpoint.id()));
                finished.put(checkpoint.id(), detailed);
                listener.accept(detailed);
            }
        }
    }

    /** Completed and failed checkpoints seen so far, by id. */
    public List<CheckpointStats> checkpoints() {
        return new ArrayList<>(finished.values());
    }

    /** The completed checkpoint with the highest id seen so far. */
    public Optional<CheckpointStats> latestCompleted() {
        return finished.descendingMap().values().stream()
                .filter(CheckpointStats::completed)
                .findFirst();
    }

    /** The highest checkpoint id seen in any state (0 before the first). */
    public long highestIdSeen() {
        return highestIdSeen;
    }

    /** The line reported for a finished checkpoint. */
    public static String describe(CheckpointStats checkpoint) {
        if (checkpoint.completed()) {
            return String.format(
                    Locale.ROOT,
                    "checkpoint %d completed: state %s, checkpointed %s, %s, %.1f MB/s",
                    checkpoint.id(),
                    Units.formatMegabytes(checkpoint.stateSizeBytes()),
                    Units.formatMegabytes(checkpoint.checkpointedSizeBytes()),
                    Units.formatSeconds(checkpoint.endToEndDurationMs()),
                    checkpoint.throughputMbPerSecond());
        }
        return String.format(
                Locale.ROOT,
                "checkpoint %d %s after %s: %s",
                checkpoint.id(),
                checkpoint.status().toLowerCase(Locale.ROOT),
                Units.formatSeconds(checkpoint.endToEndDurationMs()),
                checkpoint.failureMessage());
    }

    private List<VertexCheckpointStats> details(long checkpointId) throws IOException {
        JsonNode details = rest.checkpointDetails(jobId, checkpointId);
        Map<String, JsonNode> subtaskPages = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> task : details.path("tasks").properties()) {
            subtaskPages.put(task.getKey(), rest.checkpointSubtasks(jobId, checkpointId, task.getKey()));
        }
        if (vertexNames == null) {
            vertexNames = CheckpointStatsParser.vertexNames(rest.job(jobId));
        }
        return CheckpointStatsParser.vertices(details, subtaskPages, vertexNames);
    }
}
