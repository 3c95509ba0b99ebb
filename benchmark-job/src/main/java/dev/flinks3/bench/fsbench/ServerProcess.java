package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.common.ChildJvm;
import dev.flinks3.bench.common.ServerTraffic;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.S3ServerMain;
import dev.flinks3.testserver.ServerMode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The S3 server of a benchmark, {@link S3ServerMain} in a JVM of its own so its CPU is not charged to
 * a contender. Reads the server's {@link ServerTraffic} (its request figures over HTTP, its CPU time
 * from the operating system). Thread-safe.
 */
final class ServerProcess implements AutoCloseable {

    private static final long EXIT_WAIT_SECONDS = 10;

    private final Process process;
    private final URI endpoint;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private ServerProcess(Process process, URI endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /**
     * Starts the server JVM and waits until it listens.
     *
     * @param dataDir the server's filesystem backend directory
     * @param profile {@code lan} or {@code wan}
     * @param mode what the server charges per request ({@code --mode} of {@link S3ServerMain})
     * @param heapGib the server JVM's -Xmx in GiB (it holds the objects in {@link ServerMode#BENCHMARK})
     * @param buckets the buckets to create at start
     * @param log the server's log file (its standard error and any other output)
     * @throws IOException if the server does not start
     */
    static ServerProcess start(
            ChildJvm jvm, Path dataDir, String profile, ServerMode mode, long heapGib, List<String> buckets, Path log)
            throws IOException {
        List<String> args = new ArrayList<>(
                List.of("--dir", dataDir.toAbsolutePath().toString(), "--profile", profile, "--mode", mode.toString()));
        buckets.forEach(bucket -> args.addAll(List.of("--bucket", bucket)));
        Process process = jvm.start(
                ChildJvm.Role.SERVER,
                S3ServerMain.class.getName(),
                List.of("-Xmx" + heapGib + "g", "-XX:+UseG1GC"),
                args,
                Map.of(),
                log);
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith(S3ServerMain.READY + " ")) {
            Files.writeString(log, line + System.lineSeparator(), StandardOpenOption.APPEND);
        }
        if (line == null) {
            throw new IOException("the S3 server did not start; see " + log);
        }
        URI endpoint = URI.create(line.split(" ")[1]);
        // Drain whatever else it prints (its request counts at exit), so it never blocks on a full pipe.
        Thread drain = new Thread(() -> drain(out), "s3-server-stdout");
        drain.setDaemon(true);
        drain.start();
        return new ServerProcess(process, endpoint);
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // nothing to do with it
            }
        } catch (IOException closed) {
            // the server is gone
        }
    }

    /** The server's base URI, {@code http://127.0.0.1:<port>}. */
    URI endpoint() {
        return endpoint;
    }

    /** The server's CPU time and request figures since it started. */
    ServerTraffic traffic() throws IOException, InterruptedException {
        Duration cpu = process.info()
                .totalCpuDuration()
                .orElseThrow(() -> new IOException("the operating system does not report the server's CPU time"));
        return ServerTraffic.fetch(http, endpoint, cpu.toNanos());
    }

    /**
     * Deletes a bucket's objects in the server's backend ({@code DELETE /__flinks3/objects/<bucket>}), to keep
     * the disk or the server's heap from filling over a run.
     *
     * @throws IOException if the server does not answer 204
     */
    void dropBucket(String bucket) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(endpoint.resolve(EmbeddedS3Server.DROP_OBJECTS_PATH + bucket))
                        .DELETE()
                        .timeout(Duration.ofMinutes(1))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 204) {
            throw new IOException("the S3 server did not drop bucket " + bucket + "'s objects: HTTP "
                    + response.statusCode() + " " + response.body());
        }
    }

    /** Stops the server (its shutdown hook closes S3Proxy). */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(EXIT_WAIT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
