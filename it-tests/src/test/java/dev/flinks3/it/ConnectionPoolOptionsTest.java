package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.RequestKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.ICloseableRegistry;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.PathsCopyingFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The options of the HTTP connection pool take effect: {@code s3.connection.max} bounds the requests
 * the server sees at once, and {@code s3.connection.max-idle-time} closes a pooled connection that
 * was idle that long (on both HTTP clients).
 */
class ConnectionPoolOptionsTest extends AbstractS3ProxyFileSystemTest {

    private static final int FILES = 8;
    private static final int FILE_BYTES = 4 * MIB;

    /** How long the server holds each GET's answer in the test of the connection maximum. */
    private static final Duration GET_ANSWER_DELAY = Duration.ofMillis(50);

    @TempDir
    java.nio.file.Path local;

    @Test
    @Timeout(180)
    void theConnectionMaximumBoundsTheRequestsInFlight() throws Exception {
        List<Path> objects = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            Path object = new Path(dir, "state-" + i);
            write(object, randomBytes(FILE_BYTES, i));
            objects.add(object);
        }
        // 8 files of four 1 MiB ranges each: 32 ranged GETs that a bulk copy would send all at once. Each answer is
        // held for GET_ANSWER_DELAY at the server, so the GETs overlap however fast the machine serves them: without
        // the delay, a quick server answered some before the next were sent and the default pool peaked at 2.
        String range = "1 mb";
        String keys = dir.toUri().getPath() + "/state-";
        server.answers()
                .rewrite(
                        RequestKind.GET_OBJECT,
                        request -> request.getRequestURI().contains(keys),
                        AnswerRewriteFilter.ALWAYS,
                        (request, served) -> {
                            try {
                                Thread.sleep(GET_ANSWER_DELAY.toMillis());
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return served;
                        });
        try {
            assertThat(peakGetsInFlight(
                            objects, Map.of("s3.connection.max", "2", "s3.bulk-copy.range-size", range), "two"))
                    .as("GETs in flight at once with two connections")
                    .isBetween(1, 2);
            assertThat(peakGetsInFlight(objects, Map.of("s3.bulk-copy.range-size", range), "default"))
                    .as("GETs in flight at once with the default pool")
                    .isGreaterThan(2);
        } finally {
            server.answers().clear();
        }
    }

    @ParameterizedTest(name = "s3.http-client: {0}")
    @ValueSource(strings = {"crt", "netty"})
    @Timeout(60)
    void anIdleConnectionIsClosedAfterTheMaxIdleTime(String httpClient) throws Exception {
        Path object = new Path(dir, "idle");
        write(object, randomBytes(100, 7));
        try (ResettingTcpProxy shortIdle = new ResettingTcpProxy(target.endpoint());
                ResettingTcpProxy longIdle = new ResettingTcpProxy(target.endpoint())) {
            FileSystem closesSoon = fileSystemVia(shortIdle, httpClient, "1 s");
            FileSystem keepsIt = fileSystemVia(longIdle, httpClient, "10 min");
            try {
                assertThat(closesSoon.exists(object)).isTrue();
                assertThat(keepsIt.exists(object)).isTrue();
                assertThat(shortIdle.openConnections()).isEqualTo(1);

                await().atMost(Duration.ofSeconds(30)).until(() -> shortIdle.openConnections() == 0);

                assertThat(longIdle.openConnections())
                        .as("the connection of the 10 min pool")
                        .isEqualTo(1);
            } finally {
                FlinkS3FileSystems.close(closesSoon);
                FlinkS3FileSystems.close(keepsIt);
            }
        }
    }

    private FileSystem fileSystemVia(ResettingTcpProxy proxy, String httpClient, String maxIdleTime) throws Exception {
        return FlinkS3FileSystems.create(
                "s3",
                target.bucket(),
                target.via(proxy.endpoint())
                        .flinkConfiguration(
                                Map.of("s3.http-client", httpClient, "s3.connection.max-idle-time", maxIdleTime)));
    }

    /** Copies every object to local files with a filesystem of {@code options}; the most GETs the server served at once. */
    private int peakGetsInFlight(List<Path> objects, Map<String, String> options, String subdir) throws Exception {
        FileSystem copying = FlinkS3FileSystems.create("s3", target.bucket(), target.flinkConfiguration(options));
        try {
            List<PathsCopyingFileSystem.CopyRequest> copies = new ArrayList<>();
            for (Path object : objects) {
                copies.add(PathsCopyingFileSystem.CopyRequest.of(
                        object,
                        new Path(local.resolve(subdir).resolve(object.getName()).toUri()),
                        FILE_BYTES));
            }
            server.requestLog().clear();
            ((PathsCopyingFileSystem) copying).copyFiles(copies, ICloseableRegistry.NO_OP);
            return server.requestLog().peakInFlight(RequestKind.GET_OBJECT);
        } finally {
            FlinkS3FileSystems.close(copying);
        }
    }
}
