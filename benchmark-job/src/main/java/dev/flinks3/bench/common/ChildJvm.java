package dev.flinks3.bench.common;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.ConfigConstants;

/**
 * Starts a main class of this classpath in a JVM of its own, the one launcher of both benchmarks: the
 * filesystem benchmark's S3 server and contenders, the checkpoint benchmark's contenders. Each JVM runs on
 * the cores of its {@link Role} ({@link CpuPinning}); standard input and output stay pipes to this process
 * (for a line protocol); standard error is appended to a log file. Logging goes through Log4j 2 at WARN to
 * standard error unless the JVM options name another {@code -Dlog4j2.configurationFile}, so a JVM's
 * logging neither pollutes its protocol lines nor costs measurable CPU. JVMs still running when this
 * process ends (Ctrl-C, kill) are killed.
 */
public final class ChildJvm {

    private static final String LOG4J_CONFIG = """
            status = warn
            appender.err.type = Console
            appender.err.name = err
            appender.err.target = SYSTEM_ERR
            appender.err.layout.type = PatternLayout
            appender.err.layout.pattern = %d{HH:mm:ss.SSS} %-5level [%t] %c{1.} - %msg%n
            rootLogger.level = warn
            rootLogger.appenderRef.err.ref = err
            """;

    /** What a child JVM is, for the cores it is pinned to. */
    public enum Role {
        SERVER,
        CONTENDER
    }

    private final Path logConfig;
    private final CpuPinning pinning;
    private final Set<Process> started = ConcurrentHashMap.newKeySet();
    private boolean logConfigWritten;

    /**
     * @param workDir where the logging configuration for all child JVMs is written (at the first start)
     * @param pinning the cores each role's JVMs run on
     */
    public ChildJvm(Path workDir, CpuPinning pinning) {
        this.pinning = pinning;
        this.logConfig = workDir.resolve("log4j2-child.properties");
        // A benchmark stopped with Ctrl-C or kill must not leave a server or contender JVM behind.
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> started.stream().filter(Process::isAlive).forEach(Process::destroyForcibly),
                        "child-jvm-reaper"));
    }

    /**
     * Starts {@code mainClass} with this JVM's classpath, on the cores of its role.
     *
     * @param role the server or a contender
     * @param jvmOptions e.g. {@code -Xmx2g}; a {@code -D} here wins over this launcher's own
     * @param environment variables added to this process's environment
     * @param log file standard error is appended to
     * @throws IOException if the logging configuration cannot be written or the JVM cannot be started
     */
    public Process start(
            Role role,
            String mainClass,
            List<String> jvmOptions,
            List<String> args,
            Map<String, String> environment,
            Path log)
            throws IOException {
        List<String> command =
                new ArrayList<>(role == Role.SERVER ? pinning.serverCommandPrefix() : pinning.clientCommandPrefix());
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Two SLF4J bindings come with the server's dependencies; pin the one configured here.
        command.add("-Dslf4j.provider=org.apache.logging.slf4j.SLF4JServiceProvider");
        command.add("-Dlog4j2.configurationFile=" + writeLogConfig().toAbsolutePath());
        command.add("-Djava.awt.headless=true");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        Process process = builder.start();
        started.removeIf(p -> !p.isAlive());
        started.add(process);
        return process;
    }

    /**
     * Starts a contender's JVM with {@code FLINK_PLUGINS_DIR} (the variable Flink reads for its plugins
     * folder) set to a folder holding only that contender's plugin.
     *
     * @param pluginsRoot the plugins root folder
     * @see #start(Role, String, List, List, Map, Path)
     */
    public Process startContender(
            String mainClass, List<String> jvmOptions, List<String> args, Path pluginsRoot, Path log)
            throws IOException {
        return start(
                Role.CONTENDER,
                mainClass,
                jvmOptions,
                args,
                Map.of(
                        ConfigConstants.ENV_FLINK_PLUGINS_DIR,
                        pluginsRoot.toAbsolutePath().toString()),
                log);
    }

    private synchronized Path writeLogConfig() throws IOException {
        if (!logConfigWritten) {
            Files.createDirectories(logConfig.getParent());
            Files.writeString(logConfig, LOG4J_CONFIG);
            logConfigWritten = true;
        }
        return logConfig;
    }
}
