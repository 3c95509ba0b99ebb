package dev.flinks3.bench.checkpoint.stats;

import static dev.flinks3.bench.checkpoint.stats.RestFixtures.ACCUMULATOR_VERTEX;
import static dev.flinks3.bench.checkpoint.stats.RestFixtures.JOB_ID;
import static dev.flinks3.bench.checkpoint.stats.RestFixtures.SOURCE_VERTEX;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The collector against a JobManager stand-in that serves the recorded REST responses over HTTP. */
class CheckpointStatsCollectorTest {

    private final Map<String, String> responses = new ConcurrentHashMap<>();
    private final List<String> requested = new ArrayList<>();
    private HttpServer server;
    private FlinkRestClient rest;

    @BeforeEach
    void startServer() throws IOException {
        String job = "/jobs/" + JOB_ID;
        responses.put(job, RestFixtures.text("job.json"));
        responses.put(job + "/checkpoints", RestFixtures.text("checkpoints.json"));
        for (long id = 1; id <= 5; id++) {
            responses.put(job + "/checkpoints/details/" + id, RestFixtures.text("checkpoint-4-details.json"));
            for (String vertex : List.of(SOURCE_VERTEX, ACCUMULATOR_VERTEX)) {
                responses.put(
                        job + "/checkpoints/details/" + id + "/subtasks/" + vertex,
                        RestFixtures.text("checkpoint-4-subtasks-" + vertex + ".json"));
            }
        }
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            synchronized (requested) {
                requested.add(path);
            }
            String body = responses.get(path);
            byte[] bytes = (body == null ? "{\"errors\":[\"Not found\"]}" : body).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(body == null ? 404 : 200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        rest = new FlinkRestClient(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort()));
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    @Test
    void reportsEachFinishedCheckpointOnceWithItsDetails() throws IOException {
        List<String> lines = new ArrayList<>();
        CheckpointStatsCollector collector = new CheckpointStatsCollector(
                rest, JOB_ID, checkpoint -> lines.add(CheckpointStatsCollector.describe(checkpoint)));

        collector.poll();
        collector.poll();

        assertThat(lines).hasSize(5);
        assertThat(lines.get(3))
                .isEqualTo("checkpoint 4 completed: state 94.4 MB, checkpointed 94.4 MB, 3.51 s, 26.9 MB/s");
        assertThat(lines.get(4)).isEqualTo("checkpoint 5 failed after 1.54 s: Checkpoint Coordinator is suspending.");
        assertThat(collector.checkpoints()).extracting(CheckpointStats::id).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(collector.checkpoints())
                .allSatisfy(c -> assertThat(c.vertices()).hasSize(2));
        assertThat(collector.latestCompleted()).map(CheckpointStats::id).contains(4L);
        assertThat(collector.highestIdSeen()).isEqualTo(5);
        // Details are fetched once per checkpoint, not on every poll.
        assertThat(requested.stream().filter(p -> p.endsWith("/checkpoints/details/4")))
                .hasSize(1);
    }

    @Test
    void aFailingEndpointIsAnIoExceptionWithTheAnswer() {
        CheckpointStatsCollector collector = new CheckpointStatsCollector(rest, "0000", checkpoint -> {});

        org.assertj.core.api.Assertions.assertThatThrownBy(collector::poll)
                .isInstanceOf(IOException.class)
                .hasMessageContaining("404")
                .hasMessageContaining("Not found");
    }
}
