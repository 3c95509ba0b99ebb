package dev.flinks3.fs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;

/**
 * Writes and reads a file through the plugin in a JVM of its own, for what only a new process shows:
 * JVM options ({@code -Daws.crt.libc}) and environment variables ({@code HTTP_PROXY}). {@link #main}
 * takes the bucket and {@code key=value} configuration entries; each of {@code rounds} configures a new
 * factory and prints {@code written and read back, over Netty: <true|false>}.
 */
public final class ChildJvmWriter {

    private static final long TIMEOUT_S = 150;

    private ChildJvmWriter() {}

    /** What a finished child printed (its log included) and its exit value. */
    static final class Result {
        final int exitValue;
        final String output;

        Result(int exitValue, String output) {
            this.exitValue = exitValue;
            this.output = output;
        }
    }

    /**
     * Runs the child with the test's class path and waits for it.
     *
     * @throws IOException if it cannot start or does not finish within {@value #TIMEOUT_S} s (it is killed)
     */
    static Result run(
            Path dir,
            List<String> jvmOptions,
            Map<String, String> environment,
            int rounds,
            String bucket,
            Map<String, String> config)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                ChildJvmWriter.class.getName(),
                String.valueOf(rounds),
                bucket));
        config.forEach((key, value) -> command.add(key + "=" + value));
        Path output = Files.createTempFile(dir, "child", ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().putAll(environment);
        Process child = builder.start();
        if (!child.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IOException("the child JVM did not finish: " + Files.readString(output));
        }
        return new Result(child.exitValue(), Files.readString(output));
    }

    public static void main(String[] args) throws IOException {
        int rounds = Integer.parseInt(args[0]);
        String bucket = args[1];
        Map<String, String> config = new HashMap<>();
        for (String entry : Arrays.asList(args).subList(2, args.length)) {
            int eq = entry.indexOf('=');
            config.put(entry.substring(0, eq), entry.substring(eq + 1));
        }
        for (int round = 0; round < rounds; round++) {
            S3FileSystemFactory factory = new S3FileSystemFactory();
            factory.configure(Configuration.fromMap(config));
            FileSystem fs = factory.create(URI.create("s3://" + bucket));
            org.apache.flink.core.fs.Path path = new org.apache.flink.core.fs.Path("s3://" + bucket + "/f" + round);
            byte[] content = ("round " + round).getBytes(StandardCharsets.UTF_8);
            try (OutputStream out = fs.create(path, WriteMode.OVERWRITE)) {
                out.write(content);
            }
            try (InputStream in = fs.open(path)) {
                if (!Arrays.equals(in.readAllBytes(), content)) {
                    throw new IllegalStateException("read back other bytes");
                }
            }
            // The Netty client runs on our event loops, named flinks3-s3-netty-*.
            boolean overNetty = Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().startsWith("flinks3-s3-netty"));
            System.out.println("written and read back, over Netty: " + overNetty);
            factory.configure(new Configuration());
        }
    }
}
