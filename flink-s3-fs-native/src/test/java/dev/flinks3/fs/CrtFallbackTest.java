package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the CRT's native library does not load, the default 's3.http-client: crt' falls back to Netty
 * with one warning. A child JVM makes the load fail as a C library mismatch does: {@code
 * -Daws.crt.libc=musl} makes the CRT load its musl build, which this glibc machine cannot link
 * ({@code UnsatisfiedLinkError}, as with an older glibc or a noexec temp directory).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CrtFallbackTest {

    private static final String BUCKET = "crt-fallback";

    @TempDir
    Path dir;

    @Test
    void theFilesystemWorksOverNettyAndWarnsOnceNamingTheCauseAndTheLibraryDirectory() throws Exception {
        try (EmbeddedS3Server server = EmbeddedS3Server.builder().bucket(BUCKET).start()) {
            Path output = dir.resolve("child.log");
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m",
                    "-Daws.crt.libc=musl",
                    "-cp", System.getProperty("java.class.path"),
                    Child.class.getName(),
                    server.endpoint().toString(), server.accessKey(), server.secretKey()));
            Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            boolean finished = child.waitFor(150, TimeUnit.SECONDS);
            if (!finished) {
                child.destroyForcibly();
            }
            String log = Files.readString(output);

            assertThat(finished).as(log).isTrue();
            assertThat(child.exitValue()).as(log).isZero();
            assertThat(log.lines().filter(l -> l.contains("written and read back, over Netty: true"))).as(log).hasSize(2);
            List<String> warnings = log.lines().filter(l -> l.contains("WARN") && l.contains("CRT native library")).toList();
            assertThat(warnings).as(log).hasSize(1);
            assertThat(warnings.get(0)).contains("aws.crt.lib.dir").contains("libc.musl").contains("Netty");
        }
    }

    /** Writes and reads a file with the default configuration (CRT) in two factory configurations. */
    public static final class Child {
        public static void main(String[] args) throws IOException {
            for (int round = 0; round < 2; round++) {
                S3FileSystemFactory factory = new S3FileSystemFactory();
                factory.configure(Configuration.fromMap(Map.of(
                        "s3.endpoint", args[0], "s3.path-style-access", "true",
                        "s3.access-key", args[1], "s3.secret-key", args[2], "s3.region", "us-east-1")));
                FileSystem fs = factory.create(URI.create("s3://" + BUCKET));
                org.apache.flink.core.fs.Path path = new org.apache.flink.core.fs.Path("s3://" + BUCKET + "/f" + round);
                byte[] content = "without the CRT".getBytes(StandardCharsets.UTF_8);
                try (OutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
                    out.write(content);
                }
                try (InputStream in = fs.open(path)) {
                    if (!java.util.Arrays.equals(in.readAllBytes(), content)) {
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
}
