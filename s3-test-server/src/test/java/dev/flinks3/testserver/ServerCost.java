package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Measures what the server process charges a client, all its threads counted (Jetty's, the JIT's, the garbage
 * collector's): the server runs in a JVM of its own ({@link S3ServerMain}) and its CPU time is the operating
 * system's figure for that process, read before and after each step. A measurement, not a test (CPU figures on a
 * shared machine are no pass/fail criterion; {@code BenchmarkModeServerTest} asserts how {@link
 * ServerMode#BENCHMARK} behaves): it prints, for {@link ServerMode#FULL} and {@link ServerMode#BENCHMARK}, the
 * server CPU of one PutObject of 32 MiB, of a multipart upload of the same bytes (4 parts of 8 MiB) and of a
 * small request, and the ratios the benchmark documentation quotes; it fails only if an object does not read back.
 *
 * <p>Both servers run at once and each round measures both, in alternating order (the small requests in rounds of
 * their own); every figure is the median of several rounds after warm-up, and each ratio the median of the rounds'
 * own ratios (both sides of a ratio having met the same load). Run it with
 *
 * <pre>{@code
 * mvn -pl s3-test-server -q exec:exec -Dexec.executable=java -Dexec.classpathScope=test \
 *     -Dexec.args="-cp %classpath dev.flinks3.testserver.ServerCost"
 * }</pre>
 */
public final class ServerCost {

    private static final String BUCKET = "server-cost";
    private static final int OBJECT_BYTES = 32 << 20;
    private static final int PART_BYTES = 8 << 20;
    private static final int SMALL_REQUESTS = 500;
    private static final int WARM_UP_ROUNDS = 2;
    private static final int WARM_UP_SMALL_REQUESTS = 3000;
    private static final int ROUNDS = 5;

    private static final double GB = 1e9;

    private ServerCost() {}

    /** Runs the measurement in a temporary directory and prints its figures. */
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("server-cost");
        byte[] data = new byte[OBJECT_BYTES];
        new Random(7).nextBytes(data);
        Costs full = new Costs();
        Costs benchmark = new Costs();
        try (ServerJvm fullServer = ServerJvm.start(ServerMode.FULL, dir.resolve("full"));
                ServerJvm benchmarkServer = ServerJvm.start(ServerMode.BENCHMARK, dir.resolve("benchmark"));
                S3Client fullS3 =
                        TestClients.s3(fullServer.endpoint, EmbeddedS3Server.ACCESS_KEY, EmbeddedS3Server.SECRET_KEY);
                S3Client benchmarkS3 = TestClients.s3(
                        benchmarkServer.endpoint, EmbeddedS3Server.ACCESS_KEY, EmbeddedS3Server.SECRET_KEY)) {
            // The small requests' code is still being compiled after the warm-up rounds' few hundred requests, so
            // both servers first take enough of them for their JIT compilers to finish it.
            for (S3Client s3 : List.of(fullS3, benchmarkS3)) {
                byte[] small = Arrays.copyOf(data, 1024);
                for (int i = 0; i < WARM_UP_SMALL_REQUESTS; i++) {
                    s3.putObject(r -> r.bucket(BUCKET).key("warm-up"), RequestBody.fromBytes(small));
                }
            }
            for (int round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
                boolean fullFirst = round % 2 == 0;
                for (int i = 0; i < 2; i++) {
                    if ((i == 0) == fullFirst) {
                        measureRound(ServerMode.FULL, fullServer, fullS3, data, round, full);
                    } else {
                        measureRound(ServerMode.BENCHMARK, benchmarkServer, benchmarkS3, data, round, benchmark);
                    }
                }
            }
            // The small requests in rounds of their own, after the large bodies' garbage is collected: a round
            // measured while a server collects the 64 MiB of a large round measures its collector.
            byte[] small = Arrays.copyOf(data, 1024);
            for (int round = 0; round < ROUNDS; round++) {
                boolean fullFirst = round % 2 == 0;
                for (int i = 0; i < 2; i++) {
                    if ((i == 0) == fullFirst) {
                        measureSmallRequests(ServerMode.FULL, fullServer, fullS3, small, round, full);
                    } else {
                        measureSmallRequests(
                                ServerMode.BENCHMARK, benchmarkServer, benchmarkS3, small, round, benchmark);
                    }
                }
            }
        }
        for (Costs costs : List.of(full, benchmark)) {
            System.out.printf(
                    "server CPU (medians of %d rounds), mode %s: PUT %.2f s/GB, multipart %.2f s/GB (%.2fx the PUT,"
                            + " complete %.1f ms), small request %.3f ms%n",
                    ROUNDS,
                    costs == full ? ServerMode.FULL : ServerMode.BENCHMARK,
                    costs.putSecondsPerGb(),
                    costs.multipartSecondsPerGb(),
                    costs.multipartOverPut(),
                    Costs.median(costs.complete) / 1e6,
                    Costs.median(costs.request) / 1e6);
        }
        System.out.printf(
                "benchmark mode's server CPU per small request over full mode's: %.2fx (median of the rounds)%n",
                benchmark.requestRatioTo(full));
    }

    /** One round on one server: a PutObject, and a multipart upload of the same bytes. */
    private static void measureRound(
            ServerMode mode, ServerJvm server, S3Client s3, byte[] data, int round, Costs costs) throws Exception {
        String putKey = "put-" + round;
        String multipartKey = "multipart-" + round;
        long before = server.cpuNanos();
        s3.putObject(r -> r.bucket(BUCKET).key(putKey), RequestBody.fromBytes(data));
        long afterPut = server.cpuNanos();
        String uploadId = s3.createMultipartUpload(r -> r.bucket(BUCKET).key(multipartKey))
                .uploadId();
        List<CompletedPart> completed = new ArrayList<>();
        for (int part = 1; part <= OBJECT_BYTES / PART_BYTES; part++) {
            int number = part;
            byte[] body = Arrays.copyOfRange(data, (part - 1) * PART_BYTES, part * PART_BYTES);
            String eTag = s3.uploadPart(
                            r -> r.bucket(BUCKET)
                                    .key(multipartKey)
                                    .uploadId(uploadId)
                                    .partNumber(number),
                            RequestBody.fromBytes(body))
                    .eTag();
            completed.add(CompletedPart.builder().partNumber(number).eTag(eTag).build());
        }
        long afterParts = server.cpuNanos();
        s3.completeMultipartUpload(
                r -> r.bucket(BUCKET).key(multipartKey).uploadId(uploadId).multipartUpload(m -> m.parts(completed)));
        long afterComplete = server.cpuNanos();
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key(multipartKey)).asByteArray())
                .isEqualTo(data);
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key(putKey)).asByteArray())
                .isEqualTo(data);
        s3.deleteObject(r -> r.bucket(BUCKET).key(putKey));
        s3.deleteObject(r -> r.bucket(BUCKET).key(multipartKey));
        System.out.printf(
                "mode %s round %d: PUT %d ms, multipart %d ms (complete %d ms)%n",
                mode,
                round,
                (afterPut - before) / 1_000_000,
                (afterComplete - afterPut) / 1_000_000,
                (afterComplete - afterParts) / 1_000_000);
        if (round >= WARM_UP_ROUNDS) {
            costs.put.add(afterPut - before);
            costs.multipart.add(afterComplete - afterPut);
            costs.complete.add(afterComplete - afterParts);
        }
    }

    /** One round of {@value #SMALL_REQUESTS} PutObjects of {@code small} on one server. */
    private static void measureSmallRequests(
            ServerMode mode, ServerJvm server, S3Client s3, byte[] small, int round, Costs costs) throws Exception {
        long before = server.cpuNanos();
        for (int i = 0; i < SMALL_REQUESTS; i++) {
            String key = "small-" + round + "-" + i;
            s3.putObject(r -> r.bucket(BUCKET).key(key), RequestBody.fromBytes(small));
        }
        long after = server.cpuNanos();
        System.out.printf(
                "mode %s round %d: %d small requests %d ms%n",
                mode, round, SMALL_REQUESTS, (after - before) / 1_000_000);
        costs.request.add((after - before) / SMALL_REQUESTS);
    }

    /** The server CPU ns of each measured round, per step. */
    private static final class Costs {
        final List<Long> put = new ArrayList<>();
        final List<Long> multipart = new ArrayList<>();
        final List<Long> complete = new ArrayList<>();
        final List<Long> request = new ArrayList<>();

        double putSecondsPerGb() {
            return median(put) / 1e9 / (OBJECT_BYTES / GB);
        }

        double multipartSecondsPerGb() {
            return median(multipart) / 1e9 / (OBJECT_BYTES / GB);
        }

        /** The median over rounds of a round's multipart CPU over its PUT CPU: both met the same load. */
        double multipartOverPut() {
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < put.size(); i++) {
                ratios.add((double) multipart.get(i) / Math.max(1, put.get(i)));
            }
            return median(ratios);
        }

        /** The median over rounds of this server's CPU per small request over {@code other}'s in the same round. */
        double requestRatioTo(Costs other) {
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < request.size(); i++) {
                ratios.add((double) request.get(i) / Math.max(1, other.request.get(i)));
            }
            return median(ratios);
        }

        private static <T extends Number> double median(List<T> values) {
            double[] sorted =
                    values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
            int mid = sorted.length / 2;
            return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
        }
    }

    /** {@link S3ServerMain} in a JVM of its own, whose CPU time the operating system reports. */
    private static final class ServerJvm implements AutoCloseable {
        final Process process;
        final URI endpoint;

        private ServerJvm(Process process, URI endpoint) {
            this.process = process;
            this.endpoint = endpoint;
        }

        static ServerJvm start(ServerMode mode, Path dir) throws IOException {
            Files.createDirectories(dir);
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Process process = new ProcessBuilder(
                            java.toString(),
                            "-Xmx1g",
                            "-cp",
                            System.getProperty("java.class.path"),
                            S3ServerMain.class.getName(),
                            "--dir",
                            dir.toString(),
                            "--bucket",
                            BUCKET,
                            "--mode",
                            mode.toString())
                    .redirectError(dir.resolve("server.log").toFile())
                    .start();
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.startsWith(S3ServerMain.READY + " ")) {
                // the server's own output before it listens
            }
            if (line == null) {
                process.destroyForcibly();
                throw new IOException("the S3 server did not start: " + Files.readString(dir.resolve("server.log")));
            }
            assertThat(line).endsWith("mode=" + mode);
            return new ServerJvm(process, URI.create(line.split(" ")[1]));
        }

        long cpuNanos() {
            return process.info().totalCpuDuration().orElseThrow().toNanos();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
