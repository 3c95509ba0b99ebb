package dev.flinks3.bench.checkpoint.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Reads the JSON of Flink's checkpoint statistics endpoints (field names as in Flink's REST API
 * reference: {@code CheckpointingStatistics}, {@code CheckpointStatistics},
 * {@code TaskCheckpointStatisticsWithSubtaskDetails}). Missing fields read as 0 or empty, so older
 * and newer Flink versions parse alike. Stateless.
 */
public final class CheckpointStatsParser {

    private CheckpointStatsParser() {}

    /** The checkpoints in the {@code history} of {@code /jobs/:jobid/checkpoints}, by id, without details. */
    public static List<CheckpointStats> history(JsonNode checkpoints) {
        List<CheckpointStats> history = new ArrayList<>();
        for (JsonNode entry : checkpoints.path("history")) {
            history.add(checkpoint(entry));
        }
        history.sort(Comparator.comparingLong(CheckpointStats::id));
        return history;
    }

    /** One checkpoint from a history entry or from {@code /checkpoints/details/:id}, without vertices. */
    public static CheckpointStats checkpoint(JsonNode node) {
        return new CheckpointStats(
                node.path("id").asLong(0),
                node.path("status").asString(""),
                node.path("checkpoint_type").asString(""),
                node.path("trigger_timestamp").asLong(0),
                node.path("latest_ack_timestamp").asLong(0),
                node.path("state_size").asLong(0),
                node.path("checkpointed_size").asLong(0),
                node.path("end_to_end_duration").asLong(0),
                node.path("num_subtasks").asInt(0),
                node.path("num_acknowledged_subtasks").asInt(0),
                node.path("external_path").asString(""),
                node.path("failure_message").asString(""),
                List.of());
    }

    /**
     * The per-vertex figures of {@code /checkpoints/details/:id}.
     *
     * @param details the details page
     * @param subtaskPages the {@code subtasks/:vertexid} page of each vertex fetched, by vertex id
     * @param vertexNames vertex names by id (from {@code /jobs/:jobid}); ids without a name keep the id
     */
    public static List<VertexCheckpointStats> vertices(
            JsonNode details, Map<String, JsonNode> subtaskPages, Map<String, String> vertexNames) {
        List<VertexCheckpointStats> vertices = new ArrayList<>();
        for (Map.Entry<String, JsonNode> task : details.path("tasks").properties()) {
            String vertexId = task.getKey();
            JsonNode node = task.getValue();
            JsonNode subtaskPage = subtaskPages.get(vertexId);
            vertices.add(new VertexCheckpointStats(
                    vertexId,
                    vertexNames.getOrDefault(vertexId, vertexId),
                    node.path("state_size").asLong(0),
                    node.path("checkpointed_size").asLong(0),
                    node.path("end_to_end_duration").asLong(0),
                    node.path("num_subtasks").asInt(0),
                    subtaskPage == null ? List.of() : subtasks(subtaskPage)));
        }
        return vertices;
    }

    /** The acknowledged subtasks of a {@code subtasks/:vertexid} page, by index. */
    public static List<SubtaskCheckpointStats> subtasks(JsonNode page) {
        List<SubtaskCheckpointStats> subtasks = new ArrayList<>();
        for (JsonNode subtask : page.path("subtasks")) {
            if (!"completed".equalsIgnoreCase(subtask.path("status").asString(""))) {
                continue;
            }
            subtasks.add(new SubtaskCheckpointStats(
                    subtask.path("index").asInt(0),
                    subtask.path("state_size").asLong(0),
                    subtask.path("checkpointed_size").asLong(0),
                    subtask.path("end_to_end_duration").asLong(0),
                    subtask.path("checkpoint").path("sync").asLong(0),
                    subtask.path("checkpoint").path("async").asLong(0),
                    subtask.path("alignment").path("duration").asLong(0),
                    subtask.path("start_delay").asLong(0)));
        }
        subtasks.sort(Comparator.comparingInt(SubtaskCheckpointStats::index));
        return subtasks;
    }

    /** Vertex names by id from {@code /jobs/:jobid}. */
    public static Map<String, String> vertexNames(JsonNode job) {
        Map<String, String> names = new LinkedHashMap<>();
        for (JsonNode vertex : job.path("vertices")) {
            names.put(vertex.path("id").asString(""), vertex.path("name").asString(""));
        }
        return names;
    }
}
