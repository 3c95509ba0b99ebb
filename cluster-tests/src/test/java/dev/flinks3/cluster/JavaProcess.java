package dev.flinks3.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A JVM started by a test with an explicit class path (a Flink installation's jars, never this build's
 * class path), its output in its own log file, stopped by its PID: {@link #stop} sends SIGTERM and
 * waits, {@link #kill} is {@code kill -9}.
 */
final class JavaProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;

    private JavaProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code java -cp classPath jvmOptions mainClass args} with {@code environment} added.
     *
     * @param log the file that gets the process's stdout and stderr
     */
    static JavaProcess start(
            String name,
            Collection<Path> classPath,
            List<String> jvmOptions,
            String mainClass,
            List<String> args,
            Map<String, String> environment,
            Path log)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
        command.add(mainClass);
        command.addAll(args);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        // Should the test JVM itself be stopped, its child processes go with it.
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "stop " + name));
        return new JavaProcess(name, process, log);
    }

    /** The operating system's process id. */
    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits for the process to exit.
     *
     * @return its exit code
     * @throws IllegalStateException if it runs longer than {@code timeout} (it is killed then)
     */
    int waitFor(Duration timeout) throws InterruptedException, IOException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
            throw new IllegalStateException(name + " (pid " + pid() + ") ran longer than " + timeout
                    + "; killed. Its log ends:\n" + logTail(4_000));
        }
        return process.exitValue();
    }

    /** {@code kill -9}: the process dies at once, as under the OOM killer. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM (Flink's shutdown hooks run), then {@code kill -9} after 30 s. */
    void stop() throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            kill();
        }
    }

    /** The whole log so far. */
    String log() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** The last {@code chars} characters of the log. */
    String logTail(int chars) throws IOException {
        String all = log();
        return all.length() <= chars ? all : all.substring(all.length() - chars);
    }

    Path logFile() {
        return log;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    @Override
    public String toString() {
        return name + " (pid " + pid() + ", log " + log + ")";
    }
}
