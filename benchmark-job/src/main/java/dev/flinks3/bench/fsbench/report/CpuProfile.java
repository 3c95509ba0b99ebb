package dev.flinks3.bench.fsbench.report;

import dev.flinks3.bench.common.MarkdownTable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where one contender JVM's threads ran Java code during a timed part, from the {@code
 * jdk.ExecutionSample} events of a Java Flight Recorder file that began in the part: samples by the layer of the running
 * method (its own time, "self"), the methods with the most self samples, and the methods on the most
 * stacks (their own time and what they called, "total"). Each sample stands for one sampling period of
 * one thread running Java code; time in native code and in the JVM (GC, JIT) is not in the file.
 */
public final class CpuProfile {

    /**
     * Layers by the package names a class name contains, tried in order, so shaded copies (a plugin's
     * relocated AWS SDK, Hadoop's relocated libraries) count as the library they copy.
     */
    private static final Map<String, List<String>> LAYERS = layers();

    private static final int TOP_METHODS = 15;
    private static final int TOP_THREAD_GROUPS = 10;

    private final long samples;
    private final Map<String, Long> selfByLayer;
    private final Map<String, Long> selfByMethod;
    private final Map<String, Long> totalByMethod;
    /** Compilation time in µs per compiled method, with the compile level. */
    private final Map<String, Long> compileMicrosByMethod;

    private final long compilations;
    /** Deoptimizations per reason and method. */
    private final Map<String, Long> deoptimizations;

    private CpuProfile(
            long samples,
            Map<String, Long> selfByLayer,
            Map<String, Long> selfByMethod,
            Map<String, Long> totalByMethod,
            long compilations,
            Map<String, Long> compileMicrosByMethod,
            Map<String, Long> deoptimizations) {
        this.samples = samples;
        this.selfByLayer = selfByLayer;
        this.selfByMethod = selfByMethod;
        this.totalByMethod = totalByMethod;
        this.compilations = compilations;
        this.compileMicrosByMethod = compileMicrosByMethod;
        this.deoptimizations = deoptimizations;
    }

    /**
     * Reads the execution samples, compilations and deoptimizations of a recording that began from {@code from}
     * to {@code to}.
     *
     * @param jfr a Java Flight Recorder file
     * @throws IOException if it cannot be read or is not a recording
     */
    public static CpuProfile read(Path jfr, Instant from, Instant to) throws IOException {
        long samples = 0;
        Map<String, Long> selfByLayer = new TreeMap<>();
        Map<String, Long> selfByMethod = new TreeMap<>();
        Map<String, Long> totalByMethod = new TreeMap<>();
        long compilations = 0;
        Map<String, Long> compileMicros = new TreeMap<>();
        Map<String, Long> deoptimizations = new TreeMap<>();
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (event.getStartTime().isBefore(from) || event.getStartTime().isAfter(to)) {
                    continue;
                }
                String type = event.getEventType().getName();
                if ("jdk.Compilation".equals(type)) {
                    compilations++;
                    String method = methodOf(event);
                    String level =
                            event.hasField("compileLevel") ? " (level " + event.getValue("compileLevel") + ")" : "";
                    compileMicros.merge(method + level, event.getDuration().toNanos() / 1000, Long::sum);
                    continue;
                }
                if ("jdk.Deoptimization".equals(type)) {
                    String method = methodOf(event);
                    deoptimizations.merge(event.getValue("reason") + ": " + method, 1L, Long::sum);
                    continue;
                }
                if (!"jdk.ExecutionSample".equals(type)) {
                    continue;
                }
                RecordedStackTrace stack = event.getStackTrace();
                if (stack == null || stack.getFrames().isEmpty()) {
                    continue;
                }
                samples++;
                List<RecordedFrame> frames = stack.getFrames();
                String top = name(frames.get(0).getMethod());
                selfByLayer.merge(layerOf(top), 1L, Long::sum);
                selfByMethod.merge(top, 1L, Long::sum);
                Set<String> onStack = new HashSet<>();
                for (RecordedFrame frame : frames) {
                    String method = name(frame.getMethod());
                    if (onStack.add(method)) {
                        totalByMethod.merge(method, 1L, Long::sum);
                    }
                }
            }
        }
        return new CpuProfile(
                samples, selfByLayer, selfByMethod, totalByMethod, compilations, compileMicros, deoptimizations);
    }

    /** The execution samples read. */
    public long samples() {
        return samples;
    }

    /** Self samples per layer (e.g. {@code AWS SDK v2}, {@code Netty}, {@code JDK}), by layer name. */
    public Map<String, Long> selfByLayer() {
        return Map.copyOf(selfByLayer);
    }

    /** JIT compilations recorded ({@code jdk.Compilation} events). */
    public long compilations() {
        return compilations;
    }

    /** Deoptimizations recorded ({@code jdk.Deoptimization} events). */
    public long deoptimizations() {
        return deoptimizations.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Self samples of {@code method} ({@code class.method}), 0 if it never ran on top of a stack. */
    public long selfSamples(String method) {
        return selfByMethod.getOrDefault(method, 0L);
    }

    /** Samples whose stack holds {@code method} ({@code class.method}). */
    public long totalSamples(String method) {
        return totalByMethod.getOrDefault(method, 0L);
    }

    /**
     * The layer of a class or method name: the first layer whose package the name contains, else {@code
     * other}.
     */
    static String layerOf(String name) {
        for (Map.Entry<String, List<String>> layer : LAYERS.entrySet()) {
            for (String pkg : layer.getValue()) {
                if (name.contains(pkg)) {
                    return layer.getKey();
                }
            }
        }
        return "other";
    }

    /**
     * This profile as markdown: the CPU seconds per thread group (if given), the sample count, ms of
     * sampled Java code per operation, and the three tables of samples.
     *
     * @param heading the section's heading (e.g. the workload, contender and round)
     * @param operations the timed part's operations (e.g. GETs), for the per-operation figures; 0 to leave them
     *     out
     * @param period the sampling period, in ms
     * @param threadSeconds CPU seconds per thread group during the same timed part, JVM threads included; empty
     *     if unknown
     */
    public String markdown(String heading, long operations, double period, Map<String, Double> threadSeconds) {
        StringBuilder out = new StringBuilder();
        out.append("### ").append(heading).append("\n\n");
        appendThreads(out, operations, threadSeconds);
        appendSamples(out, operations, period);
        return out.toString();
    }

    /**
     * A section of CPU seconds per thread group alone, for a timed part recorded without execution samples.
     *
     * @see #markdown
     */
    public static String threadsMarkdown(String heading, long operations, Map<String, Double> threadSeconds) {
        StringBuilder out = new StringBuilder();
        out.append("### ").append(heading).append("\n\n");
        appendThreads(out, operations, threadSeconds);
        return out.toString();
    }

    /**
     * The S3 server's CPU seconds per thread group over a contender's timed part, under that part's section: how
     * long the part waited for the server to be quiet, and which of the server's threads (HTTP, JIT compilers, GC)
     * spent its CPU.
     *
     * @param waitSeconds seconds the part waited for the server to be quiet before it started
     * @param quiet whether the server was quiet when it started
     * @param threadSeconds the server's CPU seconds per thread group during the part
     */
    public static String serverThreadsMarkdown(double waitSeconds, boolean quiet, Map<String, Double> threadSeconds) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "The S3 server's threads (the part started %s after %.1f s of waiting):%n%n",
                quiet ? "with the server quiet" : "with the server still busy",
                waitSeconds));
        appendThreads(out, 0, threadSeconds);
        return out.toString();
    }

    private static void appendThreads(StringBuilder out, long operations, Map<String, Double> threadSeconds) {
        if (!threadSeconds.isEmpty()) {
            double all = threadSeconds.values().stream()
                    .mapToDouble(Double::doubleValue)
                    .sum();
            out.append(String.format(Locale.ROOT, "CPU of all threads: %.3f s", all));
            if (operations > 0) {
                out.append(String.format(Locale.ROOT, ", %.3f ms per operation", all * 1000 / operations));
            }
            out.append(".\n\n");
            MarkdownTable threads = new MarkdownTable(List.of("thread group", "CPU (s)", "share"));
            List<Map.Entry<String, Double>> groups = new ArrayList<>(threadSeconds.entrySet());
            groups.sort(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()));
            double shown = 0;
            for (Map.Entry<String, Double> group : groups.subList(0, Math.min(TOP_THREAD_GROUPS, groups.size()))) {
                threads.row(List.of(group.getKey(), seconds(group.getValue()), percent(group.getValue(), all)));
                shown += group.getValue();
            }
            if (groups.size() > TOP_THREAD_GROUPS) {
                threads.row(List.of("others", seconds(all - shown), percent(all - shown, all)));
            }
            out.append(threads).append('\n');
        }
    }

    private void appendSamples(StringBuilder out, long operations, double period) {
        out.append(String.format(
                Locale.ROOT, "%d samples (%.0f ms of threads running Java code)", samples, samples * period));
        if (operations > 0) {
            out.append(String.format(
                    Locale.ROOT,
                    ", %.3f ms per operation over %d operations",
                    samples * period / operations,
                    operations));
        }
        out.append(".\n\n");
        MarkdownTable layers = new MarkdownTable(List.of("layer (self)", "samples", "share"));
        sorted(selfByLayer, Integer.MAX_VALUE)
                .forEach((layer, count) -> layers.row(List.of(layer, String.valueOf(count), share(count))));
        out.append(layers).append('\n');
        MarkdownTable self = new MarkdownTable(List.of("method (self)", "layer", "samples", "share"));
        sorted(selfByMethod, TOP_METHODS)
                .forEach((method, count) ->
                        self.row(List.of(method, layerOf(method), String.valueOf(count), share(count))));
        out.append(self).append('\n');
        MarkdownTable total = new MarkdownTable(List.of("method (total)", "layer", "samples", "share"));
        sorted(totalByMethod, TOP_METHODS)
                .forEach((method, count) ->
                        total.row(List.of(method, layerOf(method), String.valueOf(count), share(count))));
        out.append(total).append('\n');
        if (compilations > 0 || !deoptimizations.isEmpty()) {
            long micros = compileMicrosByMethod.values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
            out.append(String.format(
                    Locale.ROOT,
                    "JIT: %d compilations taking %.0f ms, %d deoptimizations.%n%n",
                    compilations,
                    micros / 1000.0,
                    deoptimizations()));
            MarkdownTable compiled = new MarkdownTable(List.of("compiled method", "ms"));
            sorted(compileMicrosByMethod, TOP_METHODS)
                    .forEach((method, us) ->
                            compiled.row(List.of(method, String.format(Locale.ROOT, "%.1f", us / 1000.0))));
            out.append(compiled).append('\n');
            if (!deoptimizations.isEmpty()) {
                MarkdownTable deopts = new MarkdownTable(List.of("deoptimization: reason: method", "count"));
                sorted(deoptimizations, TOP_METHODS)
                        .forEach((what, count) -> deopts.row(List.of(what, String.valueOf(count))));
                out.append(deopts).append('\n');
            }
        }
    }

    private String share(long count) {
        return percent(count, samples);
    }

    private static String percent(double part, double whole) {
        return String.format(Locale.ROOT, "%.1f%%", whole == 0 ? 0.0 : 100.0 * part / whole);
    }

    private static String seconds(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    private static Map<String, Long> sorted(Map<String, Long> counts, int limit) {
        List<Map.Entry<String, Long>> entries = new ArrayList<>(counts.entrySet());
        entries.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()));
        Map<String, Long> top = new LinkedHashMap<>();
        entries.stream().limit(limit).forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }

    /** The {@code method} field of a compilation or deoptimization event as {@code class.method}, or {@code ?}. */
    private static String methodOf(RecordedEvent event) {
        RecordedMethod method = event.hasField("method") ? event.getValue("method") : null;
        return method == null ? "?" : name(method);
    }

    private static String name(RecordedMethod method) {
        return method.getType().getName() + "." + method.getName();
    }

    private static Map<String, List<String>> layers() {
        Map<String, List<String>> layers = new LinkedHashMap<>();
        layers.put("AWS SDK v2", List.of("software.amazon.awssdk"));
        layers.put("AWS SDK v1", List.of("com.amazonaws"));
        layers.put("Netty", List.of("io.netty"));
        layers.put("Apache HttpClient", List.of("org.apache.http", "org.apache.hc"));
        layers.put("Jackson", List.of("com.fasterxml.jackson", "tools.jackson"));
        layers.put("benchmark", List.of("dev.flinks3.bench"));
        layers.put("ours", List.of("dev.flinks3"));
        layers.put("presto/trino", List.of("com.facebook.presto", "com.facebook.airlift", "io.trino", "io.airlift"));
        layers.put("Hadoop", List.of("org.apache.hadoop"));
        layers.put("Flink", List.of("org.apache.flink"));
        layers.put("JDK TLS and crypto", List.of("sun.security", "com.sun.crypto", "javax.crypto", "javax.net.ssl"));
        layers.put("JDK", List.of("java.", "javax.", "jdk.", "sun.", "com.sun."));
        return layers;
    }
}
