package dev.flinks3.bench.fs;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.NetworkProfile;
import dev.flinks3.testserver.RequestRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The S3 server of a filesystem benchmark, in its own JVM so its CPU is not charged to a contender:
 * an {@link EmbeddedS3Server} with the chosen network profile that answers commands on standard input,
 * one per line, with one line on standard output:
 * <ul>
 *   <li>{@code STATS}: {@code STATS {json}}, a {@link ServerStats} with this process's CPU time and the
 *       requests received per S3 operation since start (cumulative; the caller takes differences);</li>
 *   <li>{@code BUCKET name}: creates a bucket, answers {@code OK};</li>
 *   <li>{@code DROP name}: deletes a bucket's directory from the backend without HTTP, answers {@code OK};</li>
 *   <li>{@code EXIT} or end of input: stops the server.</li>
 * </ul>
 * When listening it prints {@code READY <endpoint>}. Usage:
 * {@code MeteredS3ServerMain --dir PATH --profile lan|wan}.
 */
public final class MeteredS3ServerMain {

    static final String READY = "READY";
    static final String STATS = "STATS";
    static final String OK = "OK";

    private final EmbeddedS3Server server;
    private final Map<String, Long> requests = new TreeMap<>();
    private int counted;
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private MeteredS3ServerMain(EmbeddedS3Server server) {
        this.server = server;
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        Path dir = null;
        NetworkProfile profile = NetworkProfile.LAN;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(args[i + 1]);
                case "--profile" -> profile = NetworkProfile.named(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (dir == null || args.length % 2 != 0) {
            throw new IllegalArgumentException("usage: MeteredS3ServerMain --dir PATH [--profile lan|wan]");
        }
        try (EmbeddedS3Server server = EmbeddedS3Server.builder().baseDir(dir).profile(profile).start()) {
            out.println(READY + " " + server.endpoint());
            new MeteredS3ServerMain(server).serve(
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), out);
        }
        System.exit(0);
    }

    private void serve(BufferedReader commands, PrintStream out) throws IOException {
        String line;
        while ((line = commands.readLine()) != null) {
            String[] words = line.trim().split(" ", 2);
            switch (words[0]) {
                case STATS -> out.println(STATS + " " + Json.COMPACT.writeValueAsString(stats()));
                case "BUCKET" -> {
                    server.createBucket(words[1]);
                    out.println(OK);
                }
                case "DROP" -> {
                    deleteRecursively(server.baseDir().resolve(words[1]));
                    out.println(OK);
                }
                case "EXIT" -> {
                    return;
                }
                default -> out.println("ERROR unknown command " + words[0]);
            }
        }
    }

    /**
     * Folds the requests logged since the last call into the counters. The log is never cleared: a
     * request arriving between a snapshot and a clear would be lost.
     */
    private ServerStats stats() {
        List<RequestRecord> entries = server.requestLog().entries();
        entries.subList(counted, entries.size())
                .forEach(record -> requests.merge(record.kind().operationName(), 1L, Long::sum));
        counted = entries.size();
        return new ServerStats(os.getProcessCpuTime(), requests);
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
