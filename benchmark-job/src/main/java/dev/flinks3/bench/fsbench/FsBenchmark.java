package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.common.ChildJvm;
import dev.flinks3.bench.common.Contender;
import dev.flinks3.bench.common.CpuPinning;
import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.ServerStorage;
import dev.flinks3.bench.fsbench.report.Comparison;
import dev.flinks3.bench.fsbench.report.CpuProfile;
import dev.flinks3.bench.fsbench.report.MarkdownReport;
import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import dev.flinks3.bench.fsbench.workloads.WorkloadSizes;
import dev.flinks3.testserver.ServerMode;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A filesystem benchmark run (method in docs/benchmarks/README.md): one S3 server JVM with the chosen
 * profile for all contenders; each contender warmed once at small sizes; then rounds in alternating
 * order, each contender in a fresh JVM with only its plugin and a fresh bucket. Writes
 * {@code results.json} and {@code results.md} after every contender, so an interrupted run keeps
 * what it measured.
 */
final class FsBenchmark {

    /**
     * What to run.
     *
     * @param command the command line, for the report
     * @param profile {@code lan} or {@code wan}
     * @param contenders the contenders in report order
     * @param baseline the contender ratios are taken of
     * @param rounds rounds, at least 1
     * @param sizes workload sizes
     * @param workloads workloads each contender runs, in order
     * @param outDir where results, logs, plugin folders and the server's data go
     * @param clientJvmOptions options of every contender JVM (heap size)
     * @param warmUp whether to warm the server with every contender first
     * @param jitWarmUp whether each measured contender JVM runs the workloads at small sizes first
     * @param eventTimeout the longest one set-up, timed part or check may take
     * @param contenderConfiguration extra Flink configuration per contender name
     * @param cpuPinning the cores of the server and of the contenders
     * @param serverStorage where the server keeps its objects ({@code --server-storage}) in {@link ServerMode#FULL}
     * @param serverMode what the server charges per request ({@code --server-mode})
     * @param cpuProfile whether each measured workload's timed part is recorded ({@link CpuRecording}) and
     *     {@code profiles.md} written
     * @param cpuSamples with {@code cpuProfile}, whether JFR execution samples are recorded too, or only each
     *     thread group's CPU
     */
    record Settings(
            String command,
            String profile,
            List<Contender> contenders,
            String baseline,
            int rounds,
            WorkloadSizes sizes,
            List<FsWorkload> workloads,
            Path outDir,
            List<String> clientJvmOptions,
            boolean warmUp,
            boolean jitWarmUp,
            Duration eventTimeout,
            Map<String, Map<String, String>> contenderConfiguration,
            CpuPinning cpuPinning,
            ServerStorage.Choice serverStorage,
            ServerMode serverMode,
            boolean cpuProfile,
            boolean cpuSamples) {

        /** The Flink configuration {@code contender} gets: the server's endpoint and keys, then its own extra keys. */
        Map<String, String> configurationOf(String contender, URI endpoint, Path tmpDir) {
            Map<String, String> configuration = new LinkedHashMap<>(EndpointConfiguration.of(endpoint, tmpDir));
            configuration.putAll(contenderConfiguration.getOrDefault(contender, Map.of()));
            return configuration;
        }
    }

    private final Settings settings;
    private final PrintStream progress;
    private final List<WorkloadResult> results = new ArrayList<>();
    private final Map<String, String> fileSystemClasses = new TreeMap<>();
    private final List<String> warmUpFailures = new ArrayList<>();

    /** Passes of the warm-up round at most ({@link #warmUpServer}). */
    static final int MAX_WARM_UP_PASSES = 4;

    /** Share of the S3 server's CPU during a warm-up pass its JIT compilers may take for it to count as warm. */
    static final double WARM_COMPILE_SHARE = 0.05;

    /**
     * CPU seconds the S3 server's JIT compilers may take during a warm-up pass for it to count as warm, whatever
     * their share: a pass of one small workload costs the server a few tenths of a second, and what it still
     * compiles then costs a timed part little.
     */
    static final double WARM_COMPILE_SECONDS = 0.1;

    /** How the server's warm-up went, for the report; empty without a warm-up. */
    private String serverWarmUp = "";

    private final RunDescription description;
    private final ServerStorage storage;
    /** The server JVM's -Xmx in GiB: its objects stay in its heap in {@link ServerMode#BENCHMARK}. */
    private final long serverHeapGib;

    FsBenchmark(Settings settings, PrintStream progress) throws IOException {
        this.settings = settings;
        this.progress = progress;
        Map<String, String> jars = new LinkedHashMap<>();
        for (Contender contender : settings.contenders()) {
            jars.put(contender.name(), contender.describe());
        }
        // A round's objects stay until its bucket is dropped; a multipart upload holds its parts and the object at
        // once.
        long stored = 2 * settings.sizes().storedBytesPerRound();
        this.serverHeapGib = Math.max(1, (stored >> 30) + 2);
        this.storage = settings.serverMode() == ServerMode.BENCHMARK
                ? ServerStorage.inHeap(settings.outDir().resolve("server-data"), stored, serverHeapGib << 30)
                : ServerStorage.choose(
                        settings.serverStorage(), settings.outDir().resolve("server-data"), stored);
        this.description = new RunDescription(
                settings.command(),
                settings.profile(),
                settings.rounds(),
                settings.sizes(),
                jars,
                Instant.now().toString(),
                settings.cpuPinning().describe(),
                storage.describe(),
                "");
    }

    /** Runs everything and returns the markdown report (also written to {@code results.md}). */
    String run() throws IOException, InterruptedException {
        Path out = Files.createDirectories(settings.outDir());
        Path logs = Files.createDirectories(out.resolve("logs"));
        ChildJvm jvm = new ChildJvm(out, settings.cpuPinning());
        Map<String, Path> pluginRoots = new LinkedHashMap<>();
        for (Contender contender : settings.contenders()) {
            pluginRoots.put(contender.name(), contender.pluginsRoot(out));
        }
        progress.println("Starting the S3 server (profile " + settings.profile() + "); logs in " + logs);
        List<String> buckets = new ArrayList<>();
        for (Contender contender : settings.contenders()) {
            for (int round = settings.warmUp() ? 0 : 1; round <= settings.rounds(); round++) {
                buckets.add(bucket(contender, round));
            }
        }
        progress.println("S3 server's objects on " + storage.describe());
        try (ServerProcess server = ServerProcess.start(
                jvm,
                storage.dir(),
                settings.profile(),
                settings.serverMode(),
                serverHeapGib,
                buckets,
                logs.resolve("s3-server.log"))) {
            ContenderProcess contenders = new ContenderProcess(jvm, server, settings.eventTimeout());
            if (settings.warmUp()) {
                warmUpServer(contenders, server, pluginRoots, logs);
            }
            for (int round = 1; round <= settings.rounds(); round++) {
                for (Contender contender : RoundOrder.of(settings.contenders(), round)) {
                    runOne(
                            contenders,
                            server,
                            contender,
                            pluginRoots.get(contender.name()),
                            logs,
                            round,
                            settings.sizes(),
                            settings.workloads());
                    writeResults(out);
                }
            }
        } finally {
            storage.release();
        }
        if (settings.cpuProfile()) {
            writeProfiles(out.resolve("profiles.md"));
        }
        return writeResults(out);
    }

    private Path profilesDir() {
        return settings.outDir().resolve("profiles").toAbsolutePath();
    }

    /**
     * {@code profiles.md}: for each workload, contender and round, the {@link CpuProfile} of its timed part, in
     * the order of the workloads and the contenders.
     */
    private void writeProfiles(Path file) throws IOException {
        StringBuilder text = new StringBuilder("# Where the contenders' threads spent CPU\n\n");
        text.append("Command: `").append(settings.command()).append("`\n\n");
        text.append("Each timed part's CPU seconds per thread group (from /proc, the JIT's and GC's threads"
                + " included; the JVM's main thread, which runs the workload, is `java`)");
        if (settings.cpuSamples()) {
            text.append(", and Java Flight Recorder execution samples, one per thread running Java code every ")
                    .append(CpuRecording.SAMPLE_PERIOD.toMillis())
                    .append(" ms, recorded from before the JIT warm-up (time in native code and in the JVM is not")
                    .append(
                            " sampled). Sampling costs CPU itself, so the figures of a run with samples are for finding")
                    .append(" where the time goes, not for comparing; `--cpu-samples false` keeps only the thread CPU");
        }
        text.append(".\n\n");
        for (FsWorkload workload : settings.workloads()) {
            text.append("## ").append(workload.title()).append("\n\n");
            for (Contender contender : settings.contenders()) {
                for (WorkloadResult result : results) {
                    if (result.workload() != workload || !result.contender().equals(contender.name())) {
                        continue;
                    }
                    Path jfr = ContenderTask.cpuProfileFile(profilesDir(), workload, contender.name(), result.round());
                    if (!Files.exists(CpuRecording.windowFile(jfr))) {
                        continue;
                    }
                    CpuRecording.Window window = CpuRecording.readWindow(jfr);
                    String heading = String.format(
                            Locale.ROOT,
                            "%s, round %d: %.2f s wall, %.2f s process CPU, %d S3 requests",
                            contender.name(),
                            result.round(),
                            result.wallSeconds(),
                            result.clientCpuSeconds(),
                            result.requests());
                    text.append(
                            Files.exists(jfr)
                                    ? CpuProfile.read(jfr, Instant.parse(window.from()), Instant.parse(window.to()))
                                            .markdown(
                                                    heading,
                                                    result.operations(),
                                                    CpuRecording.SAMPLE_PERIOD.toMillis(),
                                                    window.threadSeconds())
                                    : CpuProfile.threadsMarkdown(heading, result.operations(), window.threadSeconds()));
                    Path serverThreads = ContenderProcess.serverThreadsFile(jfr);
                    if (Files.exists(serverThreads)) {
                        text.append(CpuProfile.serverThreadsMarkdown(
                                result.serverWaitSeconds(), result.serverQuiet(), readSeconds(serverThreads)));
                    }
                }
            }
        }
        Files.writeString(file, text);
        progress.println("CPU profiles: " + file);
    }

    /** CPU seconds by thread group, as {@link ContenderProcess} wrote them. */
    private static Map<String, Double> readSeconds(Path file) throws IOException {
        Map<String, Double> seconds = new TreeMap<>();
        Json.read(file, Map.class)
                .forEach((group, value) -> seconds.put((String) group, ((Number) value).doubleValue()));
        return seconds;
    }

    /**
     * Runs the warm-up round (every contender at small sizes) in passes until the S3 server's JIT compilers took at
     * most {@value #WARM_COMPILE_SHARE} of the server's CPU during a pass (or at most {@value #WARM_COMPILE_SECONDS}
     * s), at most {@value #MAX_WARM_UP_PASSES} passes. The server compiles the code every request runs (parsing the request line and headers, answering)
     * once enough requests have passed, and without this the first measured contender paid for it: the server's C2
     * compiler took 0.09-0.12 s of the first timed 512 MiB read of a run, whichever plugin read first, and the same
     * read in the next round ran at 0.55-0.65x the time.
     */
    private void warmUpServer(
            ContenderProcess contenders, ServerProcess server, Map<String, Path> pluginRoots, Path logs)
            throws IOException, InterruptedException {
        for (int pass = 1; ; pass++) {
            ThreadCpu before = server.threads();
            for (Contender contender : settings.contenders()) {
                warmUp(contenders, server, contender, pluginRoots.get(contender.name()), logs);
            }
            Map<String, Double> spent = server.threads().since(before);
            double all =
                    spent.values().stream().mapToDouble(Double::doubleValue).sum();
            double compiling = spent.entrySet().stream()
                    .filter(group -> group.getKey().startsWith("C1 Compiler")
                            || group.getKey().startsWith("C2 Compiler"))
                    .mapToDouble(Map.Entry::getValue)
                    .sum();
            boolean warm = compiling <= WARM_COMPILE_SHARE * all || compiling <= WARM_COMPILE_SECONDS;
            serverWarmUp = String.format(
                    Locale.ROOT,
                    "the S3 server's warm-up ran %d pass(es) of the warm-up round, its JIT compilers taking %.0f%% of"
                            + " its %.1f CPU-s in the last%s",
                    pass,
                    all > 0 ? 100 * compiling / all : 0,
                    all,
                    warm ? "" : " (still compiling)");
            progress.println("[warm-up] pass " + pass + ": " + serverWarmUp);
            if (warm || pass == MAX_WARM_UP_PASSES) {
                return;
            }
        }
    }

    private void warmUp(
            ContenderProcess contenders, ServerProcess server, Contender contender, Path pluginsRoot, Path logs)
            throws IOException, InterruptedException {
        List<WorkloadResult> warm = runOne(
                contenders,
                server,
                contender,
                pluginsRoot,
                logs,
                0,
                settings.sizes().warmUp(),
                settings.workloads());
        warm.stream()
                .filter(WorkloadResult::failed)
                .findFirst()
                .map(failed -> contender.name() + ", " + failed.workload().title() + ": " + failed.failure())
                .filter(failure -> !warmUpFailures.contains(failure))
                .ifPresent(warmUpFailures::add);
    }

    private List<WorkloadResult> runOne(
            ContenderProcess contenders,
            ServerProcess server,
            Contender contender,
            Path pluginsRoot,
            Path logs,
            int round,
            WorkloadSizes sizes,
            List<FsWorkload> workloads)
            throws IOException, InterruptedException {
        String label = round == 0 ? "warm-up" : "round " + round;
        String bucket = bucket(contender, round);
        Path tmp = Files.createDirectories(settings.outDir().resolve("tmp").resolve(contender.name()));
        progress.println(
                "[" + label + "] " + contender.name() + " (" + contender.jar().getFileName() + ")");
        ContenderTask task = new ContenderTask(
                contender.name(),
                round,
                bucket,
                settings.configurationOf(contender.name(), server.endpoint(), tmp),
                sizes,
                workloads,
                tmp.resolve("local").toString(),
                round > 0 && settings.jitWarmUp(),
                round > 0 && settings.cpuProfile() ? profilesDir().toString() : "",
                settings.cpuSamples());
        ContenderProcess.Outcome outcome;
        try {
            outcome = contenders.run(task, pluginsRoot, settings.clientJvmOptions(), logs);
        } finally {
            server.dropBucket(bucket);
        }
        if (!outcome.fileSystemClass().isEmpty()) {
            fileSystemClasses.put(contender.name(), outcome.fileSystemClass());
        }
        outcome.results().forEach(r -> progress.println("  " + line(r)));
        if (round > 0) {
            results.addAll(outcome.results());
        }
        return outcome.results();
    }

    /** A fresh bucket for each contender JVM: {@code fsbench-warm-<name>} or {@code fsbench-r<round>-<name>}. */
    private static String bucket(Contender contender, int round) {
        return "fsbench-" + (round == 0 ? "warm" : "r" + round) + "-"
                + contender.name().toLowerCase(Locale.ROOT);
    }

    private String writeResults(Path out) {
        List<String> names = settings.contenders().stream().map(Contender::name).toList();
        Comparison comparison = Comparison.of(names, settings.baseline(), results);
        String markdown = MarkdownReport.render(description.withServerWarmUp(serverWarmUp), comparison, results);
        try {
            Json.write(
                    out.resolve("results.json"),
                    new ResultsFile(
                            description.withServerWarmUp(serverWarmUp),
                            fileSystemClasses,
                            warmUpFailures,
                            results,
                            ResultsFile.ratios(comparison)));
            Files.writeString(out.resolve("results.md"), markdown);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the results to " + out, e);
        }
        return markdown;
    }

    private static String line(WorkloadResult r) {
        if (r.failed()) {
            return String.format(Locale.ROOT, "%-26s FAILED: %s", r.workload().title(), r.failure());
        }
        return String.format(
                Locale.ROOT,
                "%-26s %9.1f %-5s %7.2f s wall %6.2f s cpu %6.2f s server %5d req %6.0f MiB heap  [%s]%s",
                r.workload().title(),
                r.throughput(),
                r.workload().unit().label(),
                r.wallSeconds(),
                r.clientCpuSeconds(),
                r.serverCpuSeconds(),
                r.requests(),
                r.peakHeapBytes() / 1048576.0,
                r.method(),
                r.serverQuiet()
                        ? r.serverWaitSeconds() >= 1
                                ? String.format(Locale.ROOT, " (server quiet after %.1f s)", r.serverWaitSeconds())
                                : ""
                        : " (server not quiet after " + ServerProcess.QUIET_LIMIT.toSeconds() + " s)");
    }
}
