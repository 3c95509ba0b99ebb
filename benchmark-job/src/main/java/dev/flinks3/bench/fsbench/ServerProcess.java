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
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * The S3 server of a benchmark, {@link S3ServerMain} in a JVM of its own so its CPU is not charged to
 * a contender. Reads the server's {@link ServerTraffic} (its request figures over HTTP, its CPU time
 * from the operating system). Thread-safe.
 */
final class ServerProcess implements AutoCloseable {

    private static final long EXIT_WAIT_SECONDS = 10;

    /**
     * Share of one core the server's process may use over {@link #QUIET_WINDOW} and count as quiet: 5%, the share of
     * a warm-up pass a contender's JIT may spend compiling before its measurement starts.
     */
    static final double QUIET_SHARE = 0.05;

    /** The window over which the server's CPU is compared with {@link #QUIET_SHARE}. */
    static final Duration QUIET_WINDOW = Duration.ofMillis(200);

    /** The longest {@link #awaitQuiet} waits. */
    static final Duration QUIET_LIMIT = Duration.ofSeconds(20);

    /**
     * What {@link #awaitQuiet} found.
     *
     * @param waited how long it waited
     * @param quiet whether the server got quiet within {@link #QUIET_LIMIT}
     */
    record Quiet(Duration waited, boolean quiet) {}

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

    /**
     * Waits until the server's process (all its threads: HTTP, JIT compilers, GC) uses at most {@link #QUIET_SHARE}
     * of one core over {@link #QUIET_WINDOW}, for at most {@link #QUIET_LIMIT}. Called while no contender sends it
     * requests, right before a timed part: a server JVM goes on compiling the paths the part before ran hot, and
     * collecting what it dropped, after the requests have been answered, and the next contender's part would pay
     * for it (measured: the first timed 512 MiB read of a run cost the server 0.49 s of CPU, the same read in the
     * next round 0.22 s, whichever plugin read first). The CPU is read per thread from {@code /proc} in ns
     * ({@link ThreadCpu}); where the operating system does not tell it, the server counts as quiet at once.
     */
    Quiet awaitQuiet() throws InterruptedException {
        return awaitQuiet(process.pid(), QUIET_LIMIT);
    }

    /** {@link #awaitQuiet()} for any process, waiting at most {@code limit}. */
    static Quiet awaitQuiet(long pid, Duration limit) throws InterruptedException {
        ThreadCpu[] before = {ThreadCpu.snapshot(pid)};
        DoubleSupplier cpuSinceLastCall = () -> {
            ThreadCpu now = ThreadCpu.snapshot(pid);
            double seconds = now.since(before[0]).values().stream()
                    .mapToDouble(Double::doubleValue)
                    .sum();
            before[0] = now;
            return seconds;
        };
        return awaitQuiet(cpuSinceLastCall, System::nanoTime, window -> Thread.sleep(window.toMillis()), limit);
    }

    /** A pause of {@link #awaitQuiet}'s loop. */
    interface Pause {
        void sleep(Duration duration) throws InterruptedException;
    }

    /**
     * The decision of {@link #awaitQuiet()}: after each {@link #QUIET_WINDOW}, the process's CPU in that window
     * ({@code cpuSinceLastCall}, seconds summed over its threads) against {@link #QUIET_SHARE} of it.
     *
     * @param cpuSinceLastCall CPU seconds the process used since the previous call (the first call: since the start)
     * @param nanoClock a monotonic clock, ns
     * @param pause how a window is waited out
     */
    static Quiet awaitQuiet(DoubleSupplier cpuSinceLastCall, LongSupplier nanoClock, Pause pause, Duration limit)
            throws InterruptedException {
        long started = nanoClock.getAsLong();
        long deadline = started + limit.toNanos();
        while (true) {
            pause.sleep(QUIET_WINDOW);
            boolean quiet = cpuSinceLastCall.getAsDouble() <= QUIET_SHARE * QUIET_WINDOW.toNanos() / 1e9;
            long now = nanoClock.getAsLong();
            if (quiet || now >= deadline) {
                return new Quiet(Duration.ofNanos(now - started), quiet);
            }
        }
    }

    /** The CPU time of each of the server's threads now (empty where the operating system does not tell it). */
    ThreadCpu threads() {
        return ThreadCpu.snapshot(process.pid());
    }

    private long cpuNanos() throws IOException {
        return process.info()
                .totalCpuDuration()
                .orElseThrow(() -> new IOException("the operating system does not report the server's CPU time"))
                .toNanos();
    }

    /** The server's base URI, {@code http://127.0.0.1:<port>}. */
    URI endpoint() {
        return endpoint;
    }

    /** The server's CPU time and request figures since it started. */
    ServerTraffic traffic() throws IOException, InterruptedException {
        return ServerTraffic.fetch(http, endpoint, cpuNanos());
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
