package dev.flinks3.bench.fs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's side of the S3 server JVM ({@link MeteredS3ServerMain}): starts it, waits until it
 * listens, and sends it commands. Thread-safe (one command at a time).
 */
final class ServerProcess implements AutoCloseable {

    private static final long EXIT_WAIT_SECONDS = 10;

    private final Process process;
    private final BufferedReader replies;
    private final PrintStream commands;
    private final URI endpoint;

    private ServerProcess(Process process) throws IOException {
        this.process = process;
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        String ready = replies.readLine();
        if (ready == null || !ready.startsWith(MeteredS3ServerMain.READY + " ")) {
            process.destroyForcibly();
            throw new IOException("the S3 server did not start (first line: " + ready + "); see its log");
        }
        this.endpoint = URI.create(ready.substring(MeteredS3ServerMain.READY.length() + 1).trim());
    }

    /**
     * Starts the server JVM and waits until it listens.
     *
     * @param dataDir the server's filesystem backend directory
     * @param profile {@code lan} or {@code wan}
     * @param log the server's log file
     */
    static ServerProcess start(ChildJvm jvm, Path dataDir, String profile, Path log) throws IOException {
        Process process = jvm.start(MeteredS3ServerMain.class.getName(), List.of("-Xmx2g", "-XX:+UseG1GC"),
                List.of("--dir", dataDir.toAbsolutePath().toString(), "--profile", profile), Map.of(), log);
        return new ServerProcess(process);
    }

    /** The server's base URI, {@code http://127.0.0.1:<port>}. */
    URI endpoint() {
        return endpoint;
    }

    /** The process id of the server JVM. */
    long pid() {
        return process.pid();
    }

    /** The server's cumulative CPU time and request counts. */
    synchronized ServerStats stats() throws IOException {
        String reply = command(MeteredS3ServerMain.STATS);
        if (!reply.startsWith(MeteredS3ServerMain.STATS + " ")) {
            throw new IOException("unexpected answer to STATS: " + reply);
        }
        return Json.COMPACT.readValue(reply.substring(MeteredS3ServerMain.STATS.length() + 1), ServerStats.class);
    }

    /** Creates a bucket. */
    synchronized void createBucket(String bucket) throws IOException {
        expectOk(command("BUCKET " + bucket));
    }

    /** Deletes a bucket and everything in it from the backend's disk. */
    synchronized void dropBucket(String bucket) throws IOException {
        expectOk(command("DROP " + bucket));
    }

    private String command(String line) throws IOException {
        commands.println(line);
        String reply = replies.readLine();
        if (reply == null) {
            throw new IOException("the S3 server JVM exited (code " + exitCode() + "); see its log");
        }
        return reply;
    }

    private static void expectOk(String reply) throws IOException {
        if (!MeteredS3ServerMain.OK.equals(reply)) {
            throw new IOException("the S3 server answered: " + reply);
        }
    }

    private String exitCode() {
        return process.isAlive() ? "still running" : String.valueOf(process.exitValue());
    }

    @Override
    public synchronized void close() throws InterruptedException {
        commands.println("EXIT");
        commands.close();
        if (!process.waitFor(EXIT_WAIT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
