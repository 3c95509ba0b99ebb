package dev.flinks3.bench.checkpoint.local;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Option;

/**
 * The options of a contender's JVM ({@code run-contender} and {@code run-soak}, started by {@link ContenderJvm}):
 * which plugin, where its checkpoints go, its Flink configuration file, work folder, managed memory, the result
 * file, and the restore's parallelism. A picocli mixin.
 */
public final class ContenderJvmOptions {

    @Option(
            names = {"--restore-parallelism", "--restoreParallelism"},
            required = true)
    int restoreParallelism;

    @Option(names = "--contender", required = true)
    String contender;

    @Option(names = "--round", defaultValue = "1")
    int round;

    @Option(names = "--plugin-jar", required = true)
    Path pluginJar;

    @Option(names = "--checkpoint-dir", required = true)
    URI checkpointDirectory;

    @Option(names = "--flink-conf", required = true, description = "Properties file with Flink configuration (s3.*).")
    Path flinkConf;

    @Option(names = "--work-dir", required = true)
    Path workDir;

    @Option(names = "--managed-memory", defaultValue = "512m")
    String managedMemory;

    @Option(names = "--result", required = true)
    Path resultFile;

    /** The parallelism the job is restored at. */
    public int restoreParallelism() {
        return restoreParallelism;
    }

    /** The contender's name. */
    public String contender() {
        return contender;
    }

    /** The round this run belongs to, from 1. */
    public int round() {
        return round;
    }

    /** The plugin jar under test. */
    public Path pluginJar() {
        return pluginJar;
    }

    /** Where the job's checkpoints go ({@code s3://bucket/prefix}). */
    public URI checkpointDirectory() {
        return checkpointDirectory;
    }

    /** The contender's managed memory, as Flink spells a memory size ({@code 512m}). */
    public String managedMemory() {
        return managedMemory;
    }

    /** Where the run's {@code ContenderResult} is written. */
    public Path resultFile() {
        return resultFile;
    }

    /**
     * The entries of the Flink configuration file ({@code --flink-conf}, a properties file).
     *
     * @throws IOException if it cannot be read
     */
    public Map<String, String> flinkEntries() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(flinkConf)) {
            properties.load(in);
        }
        Map<String, String> entries = new HashMap<>();
        properties.stringPropertyNames().forEach(key -> entries.put(key, properties.getProperty(key)));
        return entries;
    }

    /** The run's work folder (RocksDB, Flink's temporary files, a soak's cluster). */
    public Path workDir() {
        return workDir;
    }

    /**
     * The JVM's temporary folder for Flink ({@code <work-dir>/tmp}), created if missing.
     *
     * @throws IOException if it cannot be created
     */
    public Path tmpDir() throws IOException {
        return Files.createDirectories(workDir.resolve("tmp"));
    }
}
