package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.common.Contender;
import dev.flinks3.bench.common.ContenderConfiguration;
import dev.flinks3.bench.common.CpuPinning;
import dev.flinks3.bench.common.ServerStorage;
import dev.flinks3.bench.common.UsageException;
import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import dev.flinks3.bench.fsbench.workloads.WorkloadSizes;
import dev.flinks3.testserver.NetworkProfile;
import dev.flinks3.testserver.ServerMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The filesystem-level benchmark: the same workloads against each plugin, each in its own JVM through
 * Flink's plugin mechanism, against one S3 server JVM with the {@code lan} or {@code wan} profile.
 * For example:
 *
 * <pre>java -jar benchmark-job/target/flinks3-benchmark-job.jar fsbench --s3-profile wan --contenders ours,native,presto,hadoop --rounds 2 --output target/fsbench</pre>
 */
@Command(
        name = "fsbench",
        mixinStandardHelpOptions = true,
        description =
                "Filesystem-level benchmark of S3 plugins for Flink: each plugin in its own JVM against one S3 server, contenders alternating, every byte read back verified.")
public final class FsBenchmarkMain implements Callable<Integer> {

    private static final long MIB = 1024L * 1024;
    private static final int KIB = 1024;

    @Option(
            names = {"--s3-profile", "--profile"},
            defaultValue = "wan",
            description = "Network profile of the S3 server: lan or wan (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(
            names = {"--contenders", "--plugins"},
            split = ",",
            defaultValue = "ours,native,presto,hadoop",
            description = "Contenders in report order (default: ${DEFAULT-VALUE}).")
    List<String> plugins;

    @Option(
            names = "--plugin",
            paramLabel = "NAME=JAR",
            description = "A contender's plugin jar, overriding where it is looked for (repeatable).")
    Map<String, Path> pluginJars = new LinkedHashMap<>();

    @Option(
            names = "--baseline",
            defaultValue = Contender.OURS,
            description = "The contender ratios are taken of (default: ${DEFAULT-VALUE}).")
    String baseline;

    @Option(
            names = "--rounds",
            defaultValue = "2",
            description = "Rounds, order alternating (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = {"--output", "--out"},
            defaultValue = "target/fsbench",
            description = "Output folder (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(
            names = "--repo-root",
            defaultValue = ".",
            description = "Repository root, where plugin jars are looked for (default: ${DEFAULT-VALUE}).")
    Path repoRoot;

    @Option(
            names = "--workloads",
            split = ",",
            description = "Workloads to run, in order (default: all): ${COMPLETION-CANDIDATES}.")
    List<FsWorkload> workloads = new ArrayList<>(List.of(FsWorkload.values()));

    @Option(names = "--stream-mib", defaultValue = "512", description = "MiB per stream (default: ${DEFAULT-VALUE}).")
    long streamMib;

    @Option(names = "--write-kib", defaultValue = "64", description = "KiB per write call (default: ${DEFAULT-VALUE}).")
    int writeKib;

    @Option(
            names = "--concurrent-streams",
            defaultValue = "4",
            description = "Streams at once (default: ${DEFAULT-VALUE}).")
    int concurrentStreams;

    @Option(
            names = "--concurrent-streams-schemes",
            split = ",",
            description = "URI schemes of the concurrent streams, taken in turn (stream i on scheme i mod n), e.g."
                    + " s3,s3a to write through both of one plugin's filesystems in one process (default: all on"
                    + " s3).")
    List<String> concurrentStreamsSchemes = new ArrayList<>();

    @Option(names = "--small-files", defaultValue = "300", description = "Small files (default: ${DEFAULT-VALUE}).")
    int smallFiles;

    @Option(
            names = "--small-file-kib",
            defaultValue = "64",
            description = "KiB per small file (default: ${DEFAULT-VALUE}).")
    int smallFileKib;

    @Option(
            names = "--positional-reads",
            defaultValue = "500",
            description = "Positional reads (default: ${DEFAULT-VALUE}).")
    int positionalReads;

    @Option(
            names = "--positional-read-kib",
            defaultValue = "16",
            description = "KiB per positional read (default: ${DEFAULT-VALUE}).")
    int positionalReadKib;

    @Option(
            names = "--scan-seconds",
            defaultValue = "" + WorkloadSizes.DEFAULT_SCAN_SECONDS,
            description = "How long the positional scan goes on reading after its --positional-reads reads, walking the"
                    + " file again from its start where it ends; 0 for exactly --positional-reads reads (default:"
                    + " ${DEFAULT-VALUE}).")
    int scanSeconds;

    @Option(
            names = "--restore-files",
            defaultValue = "16",
            description = "Files downloaded (default: ${DEFAULT-VALUE}).")
    int restoreFiles;

    @Option(
            names = "--restore-file-mib",
            defaultValue = "32",
            description = "MiB per downloaded file (default: ${DEFAULT-VALUE}).")
    long restoreFileMib;

    @Option(
            names = "--restore-threads",
            defaultValue = "8",
            description = "Download threads without bulk copy (default: ${DEFAULT-VALUE}).")
    int restoreThreads;

    @Option(
            names = "--delete-objects",
            defaultValue = "1000",
            description = "Objects deleted recursively (default: ${DEFAULT-VALUE}).")
    int deleteObjects;

    @Option(
            names = "--persist-mib",
            defaultValue = "64",
            description = "MiB written to the recoverable stream before persist() (default: ${DEFAULT-VALUE}).")
    long persistMib;

    @Option(
            names = "-D",
            paramLabel = "KEY=VALUE",
            description =
                    "A Flink configuration entry for every contender, e.g. -Ds3.upload.max-concurrency=8 (repeatable).")
    Map<String, String> flinkOptions = new LinkedHashMap<>();

    @Option(
            names = "--conf",
            paramLabel = "NAME:KEY=VALUE",
            description =
                    "Extra Flink configuration for one contender, e.g. ours:s3.upload.max-buffered-size=256mb (repeatable).")
    private List<String> contenderConf = new ArrayList<>();

    @Option(
            names = "--client-heap",
            defaultValue = "2g",
            description = "-Xmx of each contender JVM (default: ${DEFAULT-VALUE}).")
    String clientHeap;

    @Option(
            names = "--warm-up",
            defaultValue = "true",
            arity = "0..1",
            fallbackValue = "true",
            description = "Warm the server with every contender at small sizes first, in passes until the server's"
                    + " JIT compilers take at most 5%% of its CPU during a pass (or 0.1 s; at most 4 passes), so the"
                    + " first contender measured does not pay for compiling the server (default: ${DEFAULT-VALUE}).")
    boolean warmUp;

    @Option(
            names = "--jit-warm-up",
            defaultValue = "true",
            arity = "0..1",
            fallbackValue = "true",
            description = "Run the workloads at small sizes in each contender JVM before measuring, in passes until a"
                    + " pass spends at most 5%% of its time compiling (at most 30 passes or 2 minutes), and run each"
                    + " read workload once untimed (and verified) on its measured objects before timing it, and"
                    + " start each timed part only when the S3 server's process has used at most 5%% of a core over"
                    + " 200 ms (its JIT and GC done with the part before; at most 20 s), so a measurement sees"
                    + " compiled code as a long-running TaskManager does (default: ${DEFAULT-VALUE}).")
    boolean jitWarmUp;

    @Option(
            names = "--event-timeout-min",
            defaultValue = "30",
            description = "Minutes one set-up, timed part or check may take (default: ${DEFAULT-VALUE}).")
    long eventTimeoutMinutes;

    @Option(
            names = "--pin-cpus",
            defaultValue = "true",
            arity = "0..1",
            fallbackValue = "true",
            description = "Run the S3 server on the last core and the contenders on the others (taskset), so the "
                    + "server's CPU is not taken from the client measured (default: ${DEFAULT-VALUE}).")
    boolean pinCpus;

    @Option(
            names = "--server-storage",
            defaultValue = "auto",
            description = "Where the S3 server keeps its objects: tmpfs (/dev/shm, memory), disk (under --output), "
                    + "or auto: tmpfs when it and the machine's memory have room for what a round stores, since "
                    + "the server's filesystem backend writes every part twice (default: ${DEFAULT-VALUE}).")
    String serverStorage;

    @Option(
            names = "--server-mode",
            defaultValue = "benchmark",
            description = "What the S3 server charges per request: benchmark (objects in its heap, parts joined"
                    + " without copying, signatures accepted unverified: what S3 does not charge the client) or"
                    + " full (S3Proxy's filesystem backend, every signature verified) (default: ${DEFAULT-VALUE}).")
    String serverMode;

    @Option(
            names = "--cpu-profile",
            defaultValue = "false",
            arity = "0..1",
            fallbackValue = "true",
            description = "Record where each contender's threads run Java code during each measured workload (Java"
                    + " Flight Recorder execution samples every 1 ms, files under <out>/profiles) and write"
                    + " profiles.md: samples by layer and the hottest methods. Sampling costs CPU, so use such a run"
                    + " to find where the time goes, not for the figures (default: ${DEFAULT-VALUE}).")
    boolean cpuProfile;

    @Option(
            names = "--cpu-samples",
            defaultValue = "true",
            arity = "0..1",
            fallbackValue = "true",
            description = "With --cpu-profile, record the execution samples too; false keeps only each thread group's"
                    + " CPU over each timed part, which costs nothing measurable (default: ${DEFAULT-VALUE}).")
    boolean cpuSamples;

    @Spec
    CommandSpec spec;

    /** The command as typed, also when run as a subcommand of the benchmark jar's CLI. */
    String commandLine() {
        CommandSpec root = spec;
        while (root.parent() != null) {
            root = root.parent();
        }
        // The parse result holds every argument given to the root command, subcommand names included.
        List<String> words = new ArrayList<>(List.of(root.name()));
        words.addAll(spec.commandLine().getParseResult().originalArgs());
        return String.join(" ", words);
    }

    /** The workload sizes the options give. */
    WorkloadSizes sizes() {
        return new WorkloadSizes(
                streamMib * MIB,
                writeKib * KIB,
                concurrentStreams,
                smallFiles,
                smallFileKib * KIB,
                positionalReads,
                positionalReadKib * KIB,
                restoreFiles,
                restoreFileMib * MIB,
                restoreThreads,
                deleteObjects,
                KIB,
                persistMib * MIB,
                concurrentStreamsSchemes,
                scanSeconds);
    }

    /**
     * Each contender's own Flink configuration: the {@code -D} entries, then its {@code --conf} entries, which
     * win; an entry of another shape is a usage error.
     */
    Map<String, Map<String, String>> contenderConfiguration() {
        Map<String, Map<String, String>> own;
        try {
            own = ContenderConfiguration.parse(contenderConf);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
        Map<String, Map<String, String>> configuration = new LinkedHashMap<>();
        for (String name : plugins) {
            Map<String, String> entries = new LinkedHashMap<>(flinkOptions);
            entries.putAll(own.getOrDefault(name.trim(), Map.of()));
            configuration.put(name.trim(), entries);
        }
        own.forEach(configuration::putIfAbsent);
        return configuration;
    }

    @Override
    public Integer call() throws Exception {
        if (rounds < 1) {
            throw new UsageException("--rounds must be at least 1, was " + rounds);
        }
        ServerStorage.Choice storage = ServerStorage.Choice.parse(serverStorage);
        ServerMode mode;
        try {
            mode = ServerMode.named(serverMode);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--server-mode: " + e.getMessage(), e);
        }
        try {
            NetworkProfile.named(profile);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--s3-profile: " + e.getMessage(), e);
        }
        WorkloadSizes sizes = sizes();
        List<Contender> contenders = new ArrayList<>();
        for (String name : plugins) {
            contenders.add(Contender.resolve(name.trim(), pluginJars, repoRoot));
        }
        FsBenchmark.Settings settings = new FsBenchmark.Settings(
                commandLine(),
                profile,
                contenders,
                baseline,
                rounds,
                sizes,
                List.copyOf(workloads),
                out,
                List.of("-Xmx" + clientHeap, "-XX:+UseG1GC"),
                warmUp,
                jitWarmUp,
                Duration.ofMinutes(eventTimeoutMinutes),
                contenderConfiguration(),
                CpuPinning.forThisMachine(pinCpus),
                storage,
                mode,
                cpuProfile,
                cpuSamples);
        String report = new FsBenchmark(settings, System.out).run();
        System.out.println();
        System.out.println(report);
        return 0;
    }
}
