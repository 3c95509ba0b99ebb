package dev.flinks3.bench.soak;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import javax.management.MBeanServerConnection;

/**
 * What a process holds at moments of a soak (before every TaskManager stop and at the end), so a thread count or a
 * connection count that grew can be attributed: its threads grouped by name pattern (digits replaced by {@code #}, so
 * {@code s3-transfer-12} and {@code s3-transfer-13} are one pattern) and its TCP connections to the S3 endpoint
 * grouped by TCP state (a connection in {@code CLOSE_WAIT} is one the server closed and the process still holds).
 * Written as {@code <result>-census.md}, one table per process, a column per moment. Not thread-safe: the soak's
 * main thread takes and writes it.
 */
final class ProcessCensus {

    private static final Pattern DIGITS = Pattern.compile("\\d+");

    /** TCP states by their hexadecimal code in {@code /proc/net/tcp}, as the kernel's {@code tcp_states.h}. */
    private static final Map<String, String> TCP_STATES = Map.ofEntries(
            Map.entry("01", "ESTABLISHED"),
            Map.entry("02", "SYN_SENT"),
            Map.entry("03", "SYN_RECV"),
            Map.entry("04", "FIN_WAIT1"),
            Map.entry("05", "FIN_WAIT2"),
            Map.entry("06", "TIME_WAIT"),
            Map.entry("07", "CLOSE"),
            Map.entry("08", "CLOSE_WAIT"),
            Map.entry("09", "LAST_ACK"),
            Map.entry("0A", "LISTEN"),
            Map.entry("0B", "CLOSING"));

    private final List<String> moments = new ArrayList<>();
    /** Per process name: per row ("thread pattern" or "connections STATE"), the count at each moment. */
    private final Map<String, Map<String, Map<String, Integer>>> counts = new LinkedHashMap<>();

    /**
     * Takes the census of every process at a moment.
     *
     * @param moment the moment's column header, e.g. {@code before stop 3}
     * @param processes the processes running now
     * @param endpointPort the S3 endpoint's TCP port
     */
    void take(String moment, List<SampledProcess> processes, int endpointPort) {
        moments.add(moment);
        for (SampledProcess process : processes) {
            String key = process.name() + (process.generation() == 0 ? "" : " (process " + process.generation() + ")");
            Map<String, Map<String, Integer>> rows = counts.computeIfAbsent(key, k -> new TreeMap<>());
            threadPatterns(process.mbeans())
                    .forEach((pattern, n) -> rows.computeIfAbsent("thread " + pattern, k -> new TreeMap<>())
                            .put(moment, n));
            connectionStates(Path.of("/proc", Long.toString(process.pid())), endpointPort)
                    .forEach((state, n) -> rows.computeIfAbsent("connections " + state, k -> new TreeMap<>())
                            .put(moment, n));
        }
    }

    /** Writes every census so far to {@code file} as Markdown tables; a failure is ignored (the next one writes). */
    void write(Path file) {
        StringBuilder md = new StringBuilder("# Threads by name pattern and connections to S3 by TCP state\n");
        for (Map.Entry<String, Map<String, Map<String, Integer>>> process : counts.entrySet()) {
            md.append("\n## ").append(process.getKey()).append("\n\n| |");
            moments.forEach(m -> md.append(' ').append(m).append(" |"));
            md.append("\n|---|");
            moments.forEach(m -> md.append("---:|"));
            md.append('\n');
            for (Map.Entry<String, Map<String, Integer>> row :
                    process.getValue().entrySet()) {
                md.append("| `").append(row.getKey()).append("` |");
                for (String moment : moments) {
                    Integer n = row.getValue().get(moment);
                    md.append(' ').append(n == null ? "" : n.toString()).append(" |");
                }
                md.append('\n');
            }
        }
        try {
            Files.writeString(file, md);
        } catch (IOException e) {
            // The next census writes the file again.
        }
    }

    /** A thread name with its digits replaced by {@code #}. */
    static String pattern(String threadName) {
        return DIGITS.matcher(threadName).replaceAll("#");
    }

    /** The process's threads counted by name pattern; empty if they cannot be read. */
    static Map<String, Integer> threadPatterns(MBeanServerConnection mbeans) {
        Map<String, Integer> patterns = new TreeMap<>();
        try {
            ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(
                    mbeans, ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
            for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                if (info != null) {
                    patterns.merge(pattern(info.getThreadName()), 1, Integer::sum);
                }
            }
        } catch (IOException | RuntimeException e) {
            // The process is going: no threads this time.
        }
        return patterns;
    }

    /** The process's TCP connections to the endpoint counted by TCP state; empty if they cannot be read. */
    static Map<String, Integer> connectionStates(Path proc, int endpointPort) {
        Map<String, Integer> states = new TreeMap<>();
        Map<String, String> connections = SoakSampler.endpointConnections(proc, endpointPort);
        if (connections != null) {
            connections.values().forEach(code -> states.merge(TCP_STATES.getOrDefault(code, code), 1, Integer::sum));
        }
        return states;
    }
}
