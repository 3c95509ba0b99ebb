package dev.flinks3.bench.checkpoint.local;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.results.BenchmarkResults;
import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.common.Contender;
import dev.flinks3.bench.common.ContenderConfiguration;
import dev.flinks3.bench.common.CpuPinning;
import dev.flinks3.bench.common.ServerStorage;
import dev.flinks3.testserver.ServerMode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** Options that local and comparison mode share besides the job's and the S3 target's. A picocli mixin. */
public final class SessionOptions {

    @Option(
            names = {"--restore-parallelism", "--restoreParallelism"},
            description = "Parallelism of the restored job (default: the job's --parallelism).")
    Integer restoreParallelism;

    @Option(names = "--output", description = "Output folder (default: benchmark-results/<date>-<mode>-<profile>).")
    Path output;

    @Option(
            names = "--plugin",
            paramLabel = "NAME=JAR",
            description = "A contender's plugin jar, overriding where it is looked for (repeatable).")
    Map<String, Path> pluginJars = new LinkedHashMap<>();

    @Option(
            names = "--conf",
            paramLabel = "NAME:KEY=VALUE",
            description = "Flink configuration for one contender only, e.g. ours-crt:s3.client=crt with "
                    + "--plugin ours-crt=<our jar> (repeatable).")
    List<String> contenderConf = new ArrayList<>();

    @Option(
            names = "--repo-root",
            description = "Repository root where plugin jars are looked for (default: found from this jar's location).")
    Path repoRoot;

    @Option(
            names = "--jvm-option",
            paramLabel = "OPTION",
            description = "Option of each contender's JVM (repeatable; default: -Xmx2g). A -D here wins over the"
                    + " benchmark's own (e.g. another log4j2.configurationFile); since -D is also an option of this"
                    + " command, pass such options through a java argument file: --jvm-option=@FILE.")
    List<String> jvmOptions = new ArrayList<>();

    @Option(
            names = "--managed-memory",
            defaultValue = "512m",
            description =
                    "Managed memory of each contender's TaskManager, used by RocksDB (default: ${DEFAULT-VALUE}).")
    String managedMemory;

    @Option(
            names = "--keep-work",
            description =
                    "Keep the work folder (the embedded server's objects, RocksDB's files) after the run; without it,"
                            + " each contender's run deletes its files and checkpoint objects when it ends.")
    boolean keepWork;

    @Option(
            names = "--server-storage",
            defaultValue = "auto",
            description = "Where the embedded S3 server keeps its objects: tmpfs (/dev/shm, memory), disk (under"
                    + " --output), or auto: tmpfs when it and the machine's memory have room for six times the"
                    + " job's state, since the server's filesystem backend writes every part twice"
                    + " (default: ${DEFAULT-VALUE}).")
    String serverStorage;

    /**
     * Checks the job's and the S3 target's options, runs every contender and writes the results and report. With
     * the embedded server in {@code --server-mode benchmark}, a JVM whose heap cannot hold the server's objects
     * runs the command again in one whose heap can ({@link ServerHeap}).
     *
     * @param mode {@code local} or {@code compare}, in the default output folder's name
     * @return the exit code: 0 when every contender's run succeeded, else 1
     * @throws Exception as {@link BenchmarkSession#run()}; a user's mistake as an IllegalArgumentException
     */
    int run(
            String mode,
            JobParameters job,
            S3Options s3,
            List<String> contenderNames,
            int rounds,
            boolean warmUp,
            CpuPinning pinning,
            CommandSpec spec)
            throws Exception {
        if (s3.embedded() && s3.serverMode() == ServerMode.BENCHMARK) {
            OptionalInt rerun = ServerHeap.rerunIfTooSmall(job, System.out);
            if (rerun.isPresent()) {
                return rerun.getAsInt();
            }
        }
        BenchmarkResults results = session(mode, job, s3, contenderNames, rounds, warmUp, pinning, spec)
                .run();
        return results.contenders().stream().allMatch(ContenderResult::succeeded) ? 0 : 1;
    }

    /**
     * The session {@link #run} runs, for a command that changes it before it runs (the soak's).
     *
     * @throws Exception as {@link #run}
     */
    public BenchmarkSession session(
            String mode,
            JobParameters job,
            S3Options s3,
            List<String> contenderNames,
            int rounds,
            boolean warmUp,
            CpuPinning pinning,
            CommandSpec spec)
            throws Exception {
        job.validate();
        s3.validate();
        ServerStorage.Choice storage = ServerStorage.Choice.parse(serverStorage);
        return new BenchmarkSession(
                job,
                s3,
                restoreParallelism(job),
                contenders(contenderNames),
                rounds,
                output(mode, s3.profile()),
                jvmOptions(),
                contenderConfiguration(),
                managedMemory,
                CommandLines.describe(spec),
                keepWork,
                warmUp,
                pinning,
                storage,
                System.out);
    }

    int restoreParallelism(JobParameters job) {
        return restoreParallelism == null ? job.parallelism() : restoreParallelism;
    }

    Path output(String mode, String profile) {
        return output != null
                ? output
                : Path.of(
                        "benchmark-results",
                        LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-" + mode + "-"
                                + profile);
    }

    List<String> jvmOptions() {
        return jvmOptions.isEmpty() ? List.of("-Xmx2g") : jvmOptions;
    }

    /** The {@code --conf} values by contender name. */
    Map<String, Map<String, String>> contenderConfiguration() {
        return ContenderConfiguration.parse(contenderConf);
    }

    /** The contenders by name, with their jars resolved. */
    List<Contender> contenders(List<String> names) throws IOException {
        List<Contender> contenders = new ArrayList<>();
        for (String name : names) {
            contenders.add(Contender.resolve(name, pluginJars, repoRoot()));
        }
        return contenders;
    }

    /**
     * The repository root: given, or the folder two levels above this jar when it runs from
     * {@code benchmark-job/target/}, or the working directory.
     */
    Path repoRoot() {
        if (repoRoot != null) {
            return repoRoot;
        }
        try {
            Path jar = Path.of(SessionOptions.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            Path target = jar.getParent();
            if (target != null
                    && target.endsWith("target")
                    && target.getParent() != null
                    && target.getParent().getParent() != null) {
                return target.getParent().getParent();
            }
        } catch (URISyntaxException e) {
            // Not a file location: fall back to the working directory.
        }
        return Path.of("");
    }
}
