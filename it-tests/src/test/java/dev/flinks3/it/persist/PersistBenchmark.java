package dev.flinks3.it.persist;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.S3ServerMain;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * How long a {@code persist()} of a recoverable stream takes against the in-process S3 server: ours
 * beside Flink's own {@code flink-s3-fs-native} plugin, each in a JVM of its own that loads only its
 * plugin jar ({@link PersistContender}), the server in a third JVM, per network profile, contenders
 * alternating across rounds (ours first in odd rounds), after one small warm-up run each
 * (BENCHMARKING.md).
 *
 * <pre>
 * mvn -o -q -pl it-tests test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/it-cp.txt
 * java -cp it-tests/target/test-classes:$(cat /tmp/it-cp.txt) dev.flinks3.it.persist.PersistBenchmark \
 *     --ours flink-s3-fs-native/target/flinks3-flink-s3-fs-native-0.1.0-SNAPSHOT-plugin.jar \
 *     --native benchmark-job/target/plugins-rivals/native/flink-s3-fs-native-2.3.0.jar \
 *     --mib 64 --rounds 3 --profiles lan,wan
 * </pre>
 *
 * Prints each run and a markdown table of means with min and max.
 */
public final class PersistBenchmark {

    private static final String BUCKET = "persist";
    private static final int WARM_UP_MIB = 8;

    private PersistBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        Path work = Files.createTempDirectory("persist-benchmark");
        Map<String, Path> plugins = new LinkedHashMap<>();
        plugins.put("ours", pluginsFolder(work, "ours", Path.of(options.get("--ours"))));
        plugins.put("flink-native", pluginsFolder(work, "flink-native", Path.of(options.get("--native"))));
        int mib = Integer.parseInt(options.getOrDefault("--mib", "64"));
        int rounds = Integer.parseInt(options.getOrDefault("--rounds", "3"));

        StringBuilder table = new StringBuilder("| profile | contender | persist() ms | open + write + persist ms"
                + " | runs | commit and read-back |\n|---|---|---|---|---|---|\n");
        for (String profile : options.getOrDefault("--profiles", "lan,wan").split(",")) {
            Map<String, List<PersistTiming>> timings = new LinkedHashMap<>();
            try (ServerJvm server = ServerJvm.start(work.resolve("s3-" + profile), profile, work.resolve("server.log"))) {
                for (String contender : plugins.keySet()) {
                    run(server, plugins.get(contender), WARM_UP_MIB, work.resolve(contender + ".log"));
                }
                for (int round = 1; round <= rounds; round++) {
                    List<String> order = new ArrayList<>(plugins.keySet());
                    if (round % 2 == 0) {
                        java.util.Collections.reverse(order);
                    }
                    for (String contender : order) {
                        PersistTiming timing = run(server, plugins.get(contender), mib, work.resolve(contender + ".log"));
                        System.out.printf("%s round %d %s: %s%n", profile, round, contender, timing);
                        timings.computeIfAbsent(contender, c -> new ArrayList<>()).add(timing);
                    }
                }
            }
            timings.forEach((contender, runs) -> table.append("| ").append(profile).append(" | ").append(contender)
                    .append(" | ").append(spread(runs, PersistTiming::persistMillis))
                    .append(" | ").append(spread(runs, PersistTiming::durableMillis))
                    .append(" | ").append(runs.size()).append(" | ")
                    .append(runs.stream().map(PersistTiming::outcome).distinct().collect(Collectors.joining(", ")))
                    .append(" |\n"));
        }
        System.out.println();
        System.out.println("persist() of " + mib + " MiB, written in 1 MiB writes; mean (min-max) in ms");
        System.out.print(table);
    }

    /**
     * Runs one contender JVM and returns its timing; fails if it committed wrong bytes. A failed commit
     * is reported with the timing: Flink's native writer keeps a persisted remainder at {@code
     * <key>/.incomplete}, which turns the key into a directory on S3Proxy's filesystem backend, so
     * its commits fail there while its persist is an ordinary upload.
     */
    private static PersistTiming run(ServerJvm server, Path pluginsDir, int mib, Path log)
            throws IOException, InterruptedException {
        List<String> command = List.of(java(), "-Xmx1g", "-cp", contenderClasspath(),
                PersistContender.class.getName(), server.endpoint, EmbeddedS3Server.ACCESS_KEY,
                EmbeddedS3Server.SECRET_KEY, BUCKET, Integer.toString(mib));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(Redirect.appendTo(log.toFile()));
        builder.environment().put("FLINK_PLUGINS_DIR", pluginsDir.toString());
        Process process = builder.start();
        String result;
        try (BufferedReader out = reader(process)) {
            result = out.lines().filter(line -> line.startsWith(PersistContender.RESULT)).findFirst().orElse(null);
        }
        if (!process.waitFor(5, TimeUnit.MINUTES) || result == null) {
            process.destroyForcibly();
            throw new IOException("contender with " + pluginsDir + " gave no result; see " + log);
        }
        PersistTiming timing = PersistTiming.parse(result);
        if (timing.outcome().equals("wrong-bytes")) {
            throw new IOException("contender with " + pluginsDir + " committed wrong bytes: " + timing);
        }
        return timing;
    }

    /**
     * This JVM's classpath without our own modules: a contender must find its S3 filesystem only in its
     * plugins folder, as in a Flink distribution.
     */
    private static String contenderClasspath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("flinks3-"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static Path pluginsFolder(Path work, String contender, Path jar) throws IOException {
        Path root = work.resolve("plugins-" + contender);
        Path folder = Files.createDirectories(root.resolve("s3-fs"));
        Files.copy(jar, folder.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        return root;
    }

    private static String spread(List<PersistTiming> runs, ToDoubleFunction<PersistTiming> figure) {
        DoubleSummaryStatistics stats = runs.stream().mapToDouble(figure).summaryStatistics();
        return String.format("%.0f (%.0f-%.0f)", stats.getAverage(), stats.getMin(), stats.getMax());
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        if (!options.containsKey("--ours") || !options.containsKey("--native")) {
            throw new IllegalArgumentException("usage: PersistBenchmark --ours <plugin jar> --native <plugin jar>"
                    + " [--mib 64] [--rounds 3] [--profiles lan,wan]");
        }
        return options;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static BufferedReader reader(Process process) {
        return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** {@link S3ServerMain} in a JVM of its own, so its CPU is not charged to a contender. */
    private static final class ServerJvm implements AutoCloseable {

        private final Process process;
        private final String endpoint;

        private ServerJvm(Process process, String endpoint) {
            this.process = process;
            this.endpoint = endpoint;
        }

        static ServerJvm start(Path dataDir, String profile, Path log) throws IOException {
            List<String> command = List.of(java(), "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                    S3ServerMain.class.getName(), "--dir", Files.createDirectories(dataDir).toString(),
                    "--profile", profile, "--bucket", BUCKET);
            Process process = new ProcessBuilder(command).redirectError(Redirect.appendTo(log.toFile())).start();
            BufferedReader out = reader(process);
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith(S3ServerMain.READY + " ")) {
                    Thread drain = new Thread(() -> drain(out), "s3-server-stdout");
                    drain.setDaemon(true);
                    drain.start();
                    return new ServerJvm(process, line.split(" ")[1]);
                }
            }
            throw new IOException("the S3 server did not start; see " + log);
        }

        /** Reads what the server prints until it exits, so it never blocks on a full pipe. */
        private static void drain(BufferedReader out) {
            try {
                while (out.readLine() != null) {
                    // request counts printed at exit: not needed here
                }
            } catch (IOException closed) {
                // the server is gone
            }
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
