package dev.flinks3.bench.checkpoint.local;

import dev.flinks3.bench.BenchmarkCli;
import dev.flinks3.bench.common.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs one contender's {@link RunContenderCommand} in a JVM of its own ({@link ChildJvm#startContender}),
 * with only that contender's plugin. Relays the child's lines with the contender's name, hands each
 * phase marker to a listener the moment it arrives (for a reading of the S3 server at that point) and
 * sends Flink's logging to a file, with the checkpoint coordinator's INFO lines.
 */
final class ContenderJvm {

    private static final String LOG4J_CONFIG = """
            status = warn
            appender.file.type = File
            appender.file.name = file
            appender.file.fileName = ${sys:flinks3.bench.log}
            appender.file.layout.type = PatternLayout
            appender.file.layout.pattern = %d{HH:mm:ss.SSS} %-5level [%t] %c{1.} - %msg%n
            rootLogger.level = warn
            rootLogger.appenderRef.file.ref = file
            logger.checkpoint.name = org.apache.flink.runtime.checkpoint
            logger.checkpoint.level = info
            """;

    private final ChildJvm launcher;
    private final List<String> jvmOptions;
    private final Duration timeout;

    /**
     * @param launcher starts the JVM on the contenders' cores
     * @param jvmOptions options for the child JVM, e.g. {@code -Xmx2g}
     * @param timeout how long a contender may run before it is killed
     */
    ContenderJvm(ChildJvm launcher, List<String> jvmOptions, Duration timeout) {
        this.launcher = launcher;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.timeout = timeout;
    }

    /** What the child did: its exit code. */
    record Exit(int code) {}

    /**
     * Runs the child to its end.
     *
     * @param name the contender's name, prefixed to its lines
     * @param pluginsRoot the folder to set as {@code FLINK_PLUGINS_DIR}
     * @param arguments arguments of {@code run-contender}
     * @param logDir where the child's log files go
     * @param lines receives the child's lines, prefixed
     * @param phases receives each phase marker's name as it arrives (see {@link RunContenderCommand#PHASE_PREFIX})
     * @throws IOException if the child cannot be started
     */
    Exit run(
            String name,
            Path pluginsRoot,
            List<String> arguments,
            Path logDir,
            Consumer<String> lines,
            Consumer<String> phases)
            throws IOException, InterruptedException {
        return run("run-contender", name, pluginsRoot, arguments, logDir, lines, phases);
    }

    /** As {@link #run(String, Path, List, Path, Consumer, Consumer)} with another hidden command of the jar. */
    Exit run(
            String command,
            String name,
            Path pluginsRoot,
            List<String> arguments,
            Path logDir,
            Consumer<String> lines,
            Consumer<String> phases)
            throws IOException, InterruptedException {
        Files.createDirectories(logDir);
        Path logConfig = logDir.resolve("log4j2.properties");
        Files.writeString(logConfig, LOG4J_CONFIG);
        List<String> options = new ArrayList<>();
        options.add("-Dlog4j2.configurationFile=" + logConfig.toAbsolutePath());
        options.add("-Dflinks3.bench.log=" + logDir.resolve("flink.log").toAbsolutePath());
        // After the launcher's own, so a -D of --jvm-option (such as another log configuration) wins.
        options.addAll(jvmOptions);
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(arguments);
        Process process = launcher.startContender(
                BenchmarkCli.class.getName(), options, args, pluginsRoot, logDir.resolve("stderr.log"));
        process.getOutputStream().close();
        Thread killer = watchdog(process, name);
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(RunContenderCommand.PHASE_PREFIX)) {
                    phases.accept(line.substring(RunContenderCommand.PHASE_PREFIX.length())
                            .trim());
                } else {
                    lines.accept("[" + name + "] " + line);
                }
            }
        }
        int code = process.waitFor();
        killer.interrupt();
        if (code != 0) {
            lines.accept("[" + name + "] exited with code " + code + "; logs in " + logDir);
        }
        return new Exit(code);
    }

    private Thread watchdog(Process process, String name) {
        Thread thread = new Thread(
                () -> {
                    try {
                        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                            process.destroyForcibly();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "contender-watchdog-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
