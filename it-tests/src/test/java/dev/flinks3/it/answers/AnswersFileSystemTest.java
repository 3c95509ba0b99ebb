package dev.flinks3.it.answers;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * One filesystem of the plugin on S3Proxy behind the answer-rewrite filter ({@link RewrittenAnswersServer}, with
 * authentication), for a test class whose cases each set their own rewrite rules: the server and the filesystem
 * live as long as the class, the rules as long as a case. Each class works under its own prefix ({@link #base}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class AnswersFileSystemTest {

    private final Map<String, String> keys;

    protected RewrittenAnswersServer server;
    protected FileSystemFactory factory;
    protected FileSystem fs;
    /** The class's prefix in the bucket: its simple name and a random UUID. */
    protected final String base = getClass().getSimpleName() + "/" + UUID.randomUUID();

    /** @param keys the plugin's configuration keys besides the server's endpoint and credentials */
    protected AnswersFileSystemTest(Map<String, String> keys) {
        this.keys = Map.copyOf(keys);
    }

    @BeforeAll
    void start() throws Exception {
        server = new RewrittenAnswersServer(true);
        factory = server.factory(keys);
        fs = RewrittenAnswersServer.fileSystem(factory);
    }

    @AfterEach
    void clearRules() {
        server.answers().clear();
    }

    @AfterAll
    void stop() throws Exception {
        RewrittenAnswersServer.close(factory);
        server.close();
    }

    /** {@code relative} under the class's prefix, as an {@code s3://} path. */
    protected Path path(String relative) {
        return new Path("s3://" + RewrittenAnswersServer.BUCKET + "/" + base + "/" + relative);
    }
}
