package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.common.ChildJvm;
import dev.flinks3.bench.common.ServerTraffic;
import dev.flinks3.testserver.S3ServerMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The S3 server of a benchmark, {@link S3ServerMain} in a JVM of its own so its CPU is not charged to
 * a contender. Reads the server's {@link ServerTraffic} (its request figures over HTTP, its CPU time
 * from the operating system). Thread-safe.
 */
final class ServerProcess implements AutoCloseable {

    private static final long EXIT_WAIT_SECONDS = 10;

    private final Process process;
    private final Path dataDir;
    private final URI endpoint;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private ServerProcess(Process process, Path dataDir, URI endpoint) {
        this.process = process;
        this.dataDir = dataDir;
        this.endpoint = endpoint;
    }

    /**
     * Starts the server JVM and waits until it listens.
     *
     * @param dataDir the server's filesystem backend directory
     * @param profile {@code lan} or {@code wan}
     * @param buckets the buckets to create at start
     * @param log the server's log file (its standard error and any other output)
     * @throws IOException if the server does not start
     */
    static ServerProcess start(ChildJvm jvm, Path dataDir, String profile, List<String> buckets, Path log)
            throws IOException {
        List<String> args =
                new ArrayList<>(List.of("--dir", dataDir.toAbsolutePath().toString(), "--profile", profile));
        buckets.forEach(bucket -> args.addAll(List.of("--bucket", bucket)));
        Process process = jvm.start(
                ChildJvm.Role.SERVER,
                S3ServerMain.class.getName(),
                List.of("-Xmx1g", "-XX:+UseG1GC"),
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
        return new ServerProcess(process, dataDir, endpoint);
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
     * Deletes a bucket's directory from the server's filesystem backend, to keep the disk from filling
     * over a run. The bucket must not be used afterwards.
     */
    void dropBucket(String bucket) throws IOException {
        Path root = dataDir.resolve(bucket);
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
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
