package dev.flinks3.bench.checkpoint.stats;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * REST responses recorded from a real run of the job on Flink 2.3.0 (a MiniCluster, Flink's native S3
 * plugin, checkpoint 4 of job 5af95842...): {@code src/test/resources/rest/flink-2.3.0/}.
 */
public final class RestFixtures {

    public static final String JOB_ID = "5af9584267c3a11d63bb466aceca3f70";
    public static final String SOURCE_VERTEX = "5e88ece2919d586b37df09cd1e46276a";
    public static final String ACCUMULATOR_VERTEX = "95d08283645581d60558d9db94818a67";

    private RestFixtures() {}

    /** The text of a recorded response, by file name. */
    public static String text(String name) {
        try (InputStream in = RestFixtures.class.getResourceAsStream("/rest/flink-2.3.0/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A recorded response parsed. */
    public static JsonNode json(String name) {
        return JsonMapper.shared().readTree(text(name));
    }
}
