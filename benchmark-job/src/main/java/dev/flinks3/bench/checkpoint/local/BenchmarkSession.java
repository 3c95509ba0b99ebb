package dev.flinks3.bench.checkpoint.local;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.report.ReportWriter;
import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.Machine;
import dev.flinks3.bench.checkpoint.results.RunConfiguration;
import dev.flinks3.bench.checkpoint.results.S3Faults;
import dev.flinks3.bench.checkpoint.results.S3Traffic;
import dev.flinks3.bench.checkpoint.run.RunEvents;
import dev.flinks3.bench.common.ChildJvm;
import dev.flinks3.bench.common.Contender;
import dev.flinks3.bench.common.CpuPinning;
import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.PluginInfo;
import dev.flinks3.bench.common.ServerStorage;
import dev.flinks3.bench.common.ServerTraffic;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.FaultProfile;
import dev.flinks3.testserver.InjectedFaults;
import dev.flinks3.testserver.NetworkProfile;
import dev.flinks3.testserver.ServerMode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Runs the job once per contender and round, each contender in its own JVM with only its plugin, all
 * against one S3 target (the embedded server with a network profile, owned by this JVM, or an
 * external endpoint), and writes {@code results.json}, {@code report.md} and the charts. Rounds
 * alternate the order (A B C, then C B A), so a machine whose speed drifts affects every contender alike.
 */
public final class BenchmarkSession {

    private final JobParameters job;
    private final S3Options s3;
    private final int restoreParallelism;
    private final List<Contender> contenders;
    private final int rounds;
    private final Path output;
    private final ContenderJvm jvm;
    private final Map<String, Map<String, String>> contenderConf;
    private final String managedMemory;
    private final String command;
    private final boolean keepWork;
    private final boolean warmUp;
    private final CpuPinning cpuPinning;
    private final ServerStorage.Choice serverStorage;
    private final PrintStream out;
    private String childCommand = "run-contender";
    private List<String> childArguments = List.of();

    /**
     * @param contenderConf Flink configuration for single contenders by name ({@code --conf}), after the common one
     * @param output the output folder (created); work files go to {@code output/work}
     * @param command the command line, recorded in the results
     * @param keepWork whether {@code output/work} stays after the run (else it is deleted)
     * @param warmUp whether every contender first runs once with small state, not recorded
     * @param cpuPinning the cores of the embedded server (this process) and of the contender JVMs
     */
    public BenchmarkSession(
            JobParameters job,
            S3Options s3,
            int restoreParallelism,
            List<Contender> contenders,
            int rounds,
            Path output,
            List<String> jvmOptions,
            Map<String, Map<String, String>> contenderConf,
            String managedMemory,
            String command,
            boolean keepWork,
            boolean warmUp,
            CpuPinning cpuPinning,
            ServerStorage.Choice serverStorage,
            PrintStream out) {
        this.job = job;
        this.s3 = s3;
        this.restoreParallelism = restoreParallelism;
        this.contenders = List.copyOf(contenders);
        this.rounds = rounds;
        this.output = output;
        for (String name : contenderConf.keySet()) {
            if (contenders.stream().noneMatch(c -> c.name().equals(name))) {
                throw new IllegalArgumentException("--conf names contender '" + name + "', which is not among "
                        + contenders.stream().map(Contender::name).toList());
            }
        }
        this.contenderConf = Map.copyOf(contenderConf);
        this.managedMemory = managedMemory;
        this.command = command;
        this.keepWork = keepWork;
        this.warmUp = warmUp;
        this.cpuPinning = cpuPinning;
        this.serverStorage = serverStorage;
        this.out = out;
        // Generous: a contender that hangs is killed rather than blocking the other contenders.
        Duration timeout = job.duration()
                .multipliedBy(4)
                .plus(job.checkpointTimeout().multipliedBy(2))
                .plusMinutes(5);
        this.jvm = new ContenderJvm(new ChildJvm(output.resolve("work"), cpuPinning), jvmOptions, timeout);
    }

    /**
     * Runs each contender with another hidden command of the jar than {@code run-contender}, e.g. the soak's
     * {@code run-soak}, which takes the same arguments and these after them.
     *
     * @return this
     */
    public BenchmarkSession withChildCommand(String command, List<String> extraArguments) {
        this.childCommand = command;
        this.childArguments = List.copyOf(extraArguments);
        return this;
    }

    /** The output folder. */
    public Path output() {
        return output;
    }

    /**
     * Runs every contender and writes the results and the report.
     *
     * @return the results as written to {@code results.json}
     * @throws Exception if the server cannot start or the output cannot be written; a failing contender
     *     is recorded with its error instead
     */
    public BenchmarkResults run() throws Exception {
        Files.createDirectories(output);
        Path work = Files.createDirectories(output.resolve("work"));
        String date = Instant.now().toString();
        List<ContenderResult> results = new ArrayList<>();
        // Read before pinning: a pinned process sees only the server's core.
        Machine machine = Machine.current();
        long storedBytes = ServerHeap.storedBytes(job);
        ServerStorage storage = !s3.embedded()
                ? null
                : s3.serverMode() == ServerMode.BENCHMARK
                        ? ServerStorage.inHeap(
                                work.resolve("s3"),
                                storedBytes / 2,
                                Runtime.getRuntime().maxMemory())
                        : ServerStorage.choose(serverStorage, work.resolve("s3"), storedBytes);
        if (s3.embedded()) {
            cpuPinning.pinThisProcessAsServer();
        }
        try (EmbeddedS3Server server = s3.embedded() ? startServer(storage.dir()) : null) {
            Map<String, Path> flinkConf = new HashMap<>();
            for (Contender contender : contenders) {
                flinkConf.put(contender.name(), writeFlinkConfiguration(work, server, contender.name()));
            }
            String endpoint = server == null
                    ? s3.endpoint().toString()
                    : server.endpoint().toString();
            out.println("S3: " + endpoint + " (" + s3.profile() + "), bucket " + s3.bucket() + "; job: " + job);
            out.println("CPUs: " + (server == null ? "not pinned (external endpoint)" : cpuPinning.describe()));
            if (storage != null) {
                out.println("S3 server's objects on " + storage.describe());
            }
            if (server != null && server.faultProfile() != null) {
                out.println("S3 faults: " + server.faultProfile());
            }
            if (warmUp) {
                // A cold server slows whoever runs first: warm it once with every contender at small sizes first.
                for (Contender contender : contenders) {
                    runContender(
                            warmUpParameters(),
                            "warmup-" + contender.name(),
                            0,
                            contender,
                            flinkConf.get(contender.name()),
                            work,
                            null);
                }
            }
            for (int round = 1; round <= rounds; round++) {
                List<Contender> order = new ArrayList<>(contenders);
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (Contender contender : order) {
                    String runName = rounds > 1 ? contender.name() + "-r" + round : contender.name();
                    results.add(runContender(
                            job, runName, round, contender, flinkConf.get(contender.name()), work, server));
                    if (!keepWork) {
                        releaseRun(work.resolve(runName), server, runName);
                    }
                }
            }
            RunConfiguration configuration = storage == null
                    ? configuration(endpoint)
                    : configuration(endpoint)
                            .withServerSetup(cpuPinning.describe() + "; its objects on " + storage.describe());
            BenchmarkResults benchmark = new BenchmarkResults(
                    date, machine, configuration, results, server == null ? null : injectedFaults(server));
            Json.write(output.resolve("results.json"), benchmark);
            Path report = new ReportWriter(output).write(benchmark);
            out.println("results: " + output.resolve("results.json").toAbsolutePath());
            out.println("report: " + report.toAbsolutePath());
            return benchmark;
        } finally {
            if (!keepWork) {
                deleteRecursively(work);
                if (storage != null) {
                    storage.release();
                }
            }
        }
    }

    /**
     * Deletes what one finished run left: its local work directory (RocksDB, Flink's temporary files) and,
     * on the embedded server, its checkpoint objects. A later run never reads them, and at gigabytes of
     * state a run's leftovers would otherwise pile up on the server's disk (or memory, on tmpfs) for the
     * rest of the session.
     */
    private void releaseRun(Path runDir, EmbeddedS3Server server, String runName) throws IOException {
        deleteRecursively(runDir);
        if (server != null) {
            server.dropObjects(s3.bucket(), output.getFileName() + "/" + runName + "/");
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /**
     * Small state, a few seconds: enough to load every class, open connections to the server and have the server
     * compile the paths every contender's checkpoints take, large bodies and multipart uploads included. 32 MiB
     * of state (256 keys of 128 KiB) makes each subtask's full checkpoint a stream of 8 MiB or more, longer than
     * the part size of the plugins that split streams into parts; with 1 MiB (64 keys of 16 KiB) every request
     * was a small PutObject, and the first contender of round 1 then cost the server up to 2.3x the CPU of its
     * round 2 (main job, `wan`, 2026-12-06).
     */
    private JobParameters warmUpParameters() {
        Map<String, String> small = job.toMap();
        small.putAll(Map.of(
                "numKeys",
                "256",
                "valueSizeKb",
                "128",
                "recordsPerSecond",
                "100",
                "duration",
                "3s",
                "checkpointInterval",
                "1s",
                "minPause",
                "200ms"));
        return JobParameters.fromMap(small);
    }

    /**
     * Runs one contender's JVM to its end.
     *
     * @param server the embedded server whose traffic and CPU time to attach to the result, or null not to
     */
    private ContenderResult runContender(
            JobParameters parameters,
            String runName,
            int round,
            Contender contender,
            Path flinkConf,
            Path work,
            EmbeddedS3Server server)
            throws IOException, InterruptedException {
        Path runDir = Files.createDirectories(work.resolve(runName));
        Path resultFile = output.resolve("contenders").resolve(runName + ".json");
        Files.deleteIfExists(resultFile);
        List<String> arguments = new ArrayList<>(parameters.toArguments());
        arguments.addAll(List.of(
                "--restore-parallelism", Integer.toString(restoreParallelism),
                "--contender", contender.name(),
                "--round", Integer.toString(round),
                "--plugin-jar", contender.jar().toString(),
                "--checkpoint-dir", "s3://" + s3.bucket() + "/" + output.getFileName() + "/" + runName,
                "--flink-conf", flinkConf.toString(),
                "--work-dir", runDir.toString(),
                "--managed-memory", managedMemory,
                "--result", resultFile.toString()));
        arguments.addAll(childArguments);
        out.println("== " + runName + ": " + contender.jar());
        // Readings of the server at the run's start and at each phase marker, attributing its requests to phases.
        ServerTraffic start = server == null ? null : ServerTraffic.of(server);
        Map<String, ServerTraffic> atPhase = new HashMap<>();
        ContenderJvm.Exit exit = jvm.run(
                childCommand,
                runName,
                contender.pluginsRoot(runDir),
                arguments,
                output.resolve("logs").resolve(runName),
                out::println,
                phase -> {
                    if (server != null) {
                        atPhase.put(phase, ServerTraffic.of(server));
                    }
                });
        if (!Files.isRegularFile(resultFile)) {
            return new ContenderResult(
                    PluginInfo.notLoaded(contender.name(), contender.jar()),
                    round,
                    null,
                    "contender JVM exited with code " + exit.code() + " without a result; see "
                            + output.resolve("logs").resolve(runName),
                    0,
                    0,
                    Map.of(),
                    0);
        }
        ContenderResult result = Json.read(resultFile, ContenderResult.class);
        if (server == null) {
            return result;
        }
        // This process does little but host the embedded server while a contender runs: its CPU is the server's.
        double serverCpu = ServerTraffic.of(server).minus(start).cpuNanos() / 1e9;
        return result.withServer(traffic(atPhase), serverCpu);
    }

    private static Map<String, S3Traffic> traffic(Map<String, ServerTraffic> atPhase) {
        Map<String, S3Traffic> traffic = new LinkedHashMap<>();
        addPhase(
                traffic,
                "checkpointing",
                atPhase.get(RunEvents.CHECKPOINTING_START),
                atPhase.get(RunEvents.CHECKPOINTING_END));
        addPhase(traffic, "restore", atPhase.get(RunEvents.RESTORE_START), atPhase.get(RunEvents.RESTORE_RUNNING));
        return traffic;
    }

    private static void addPhase(Map<String, S3Traffic> traffic, String name, ServerTraffic start, ServerTraffic end) {
        if (start != null && end != null) {
            traffic.put(name, S3Traffic.of(end.minus(start)));
        }
    }

    private EmbeddedS3Server startServer(Path dataDir) {
        return EmbeddedS3Server.builder()
                .mode(s3.serverMode())
                .baseDir(dataDir)
                .profile(NetworkProfile.named(s3.profile()))
                .bucket(s3.bucket())
                .faultProfile(s3.faultProfile())
                // Phases are measured from the request summary: keeping every request would grow with the run.
                .keepRequestEntries(false)
                .start();
    }

    /** The server's injected faults, or null if it has no fault profile. */
    private static S3Faults injectedFaults(EmbeddedS3Server server) {
        FaultProfile profile = server.faultProfile();
        if (profile == null) {
            return null;
        }
        InjectedFaults injected = server.injectedFaults();
        return new S3Faults(
                profile.errorRate(),
                profile.resetRate(),
                profile.seed(),
                injected.internalErrors(),
                injected.slowDowns(),
                injected.resets(),
                injected.midBodyResets(),
                injected.slowAnswers(),
                profile.slowAnswerMillis(),
                server.slowAnswerTimes());
    }

    /**
     * A contender's Flink configuration (the common one, then its own {@code --conf} entries), in a file only
     * this user can read (it may hold credentials).
     */
    private Path writeFlinkConfiguration(Path work, EmbeddedS3Server server, String contender) throws IOException {
        Properties properties = new Properties();
        properties.putAll(s3.flinkConfiguration(server));
        properties.putAll(contenderConf.getOrDefault(contender, Map.of()));
        Path file = work.resolve("flink-conf-" + contender + ".properties");
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (OutputStream stream = Files.newOutputStream(file)) {
            properties.store(stream, "Flink configuration of the contenders");
        }
        return file;
    }

    private RunConfiguration configuration(String endpoint) {
        return RunConfiguration.of(
                job,
                restoreParallelism,
                s3.profile(),
                endpoint,
                s3.bucket(),
                rounds,
                contenders.stream().map(Contender::name).toList(),
                command);
    }
}
