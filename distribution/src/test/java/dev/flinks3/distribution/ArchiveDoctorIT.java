package dev.flinks3.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.flinks3.testserver.EmbeddedS3Server;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The doctor as an operator runs it: its jar taken out of the release archive and started with {@code java -jar}
 * (a JRE alone, no Maven, no class path of the build) against a real S3 server, reading a Flink {@code config.yaml}.
 * On S3Proxy every check is ok (exit code 0); on the Ceph RGW that CI starts (found through {@code
 * FLINKS3_CEPH_ENDPOINT} and its siblings) nothing fails, Ceph's known differences being warnings (exit code 1).
 * What each check reports on each store is tested in the doctor module; this shows that the shipped jar runs.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ArchiveDoctorIT {

    private static final Path ARCHIVE = Path.of(System.getProperty("release.archive"));
    private static final String DOCTOR_ENTRY =
            "tools/" + Path.of(System.getProperty("doctor.jar")).getFileName();

    @TempDir
    static Path work;

    private static Path doctorJar;

    @BeforeAll
    static void takeTheDoctorOutOfTheArchive() throws IOException {
        try (InputStream in = Files.newInputStream(ARCHIVE);
                TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(in))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                if (entry.getName().endsWith("/" + DOCTOR_ENTRY)) {
                    doctorJar = work.resolve("flinks3-doctor.jar");
                    Files.copy(tar, doctorJar);
                }
            }
        }
        assertThat(doctorJar).as(DOCTOR_ENTRY + " in " + ARCHIVE).isNotNull();
    }

    @Test
    void onS3ProxyEveryCheckIsOk(@TempDir Path conf) throws Exception {
        try (EmbeddedS3Server server =
                EmbeddedS3Server.builder().bucket("archive-doctor").start()) {
            Map<String, String> keys = new LinkedHashMap<>();
            keys.put("s3.endpoint", server.endpoint().toString());
            keys.put("s3.access-key", server.accessKey());
            keys.put("s3.secret-key", server.secretKey());
            keys.put("s3.region", server.region());
            keys.put("s3.path-style-access", "true");

            Run run = doctor(conf, keys, "s3://archive-doctor/checkpoints");

            assertThat(run.exit).as(run.output).isZero();
            assertThat(run.output).contains("\"verdict\" : \"ok\"").doesNotContain(server.secretKey());
        }
    }

    @Test
    void onCephRgwNothingFails(@TempDir Path conf) throws Exception {
        String endpoint = System.getenv("FLINKS3_CEPH_ENDPOINT");
        assumeTrue(endpoint != null, "no Ceph RGW: FLINKS3_CEPH_ENDPOINT is not set (.ci/run sets it)");
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("s3.endpoint", endpoint);
        keys.put("s3.access-key", System.getenv("FLINKS3_CEPH_ACCESS_KEY"));
        keys.put("s3.secret-key", System.getenv("FLINKS3_CEPH_SECRET_KEY"));
        keys.put("s3.region", System.getenv("FLINKS3_CEPH_REGION"));
        keys.put("s3.path-style-access", "true");

        Run run = doctor(
                conf, keys, "s3://" + System.getenv("FLINKS3_CEPH_BUCKET") + "/archive-doctor-" + System.nanoTime());

        assertThat(run.exit).as(run.output).isEqualTo(1);
        assertThat(run.output).doesNotContain("\"verdict\" : \"failure\"");
    }

    private static Run doctor(Path conf, Map<String, String> keys, String location)
            throws IOException, InterruptedException {
        StringBuilder yaml = new StringBuilder();
        keys.forEach(
                (key, value) -> yaml.append(key).append(": \"").append(value).append("\"\n"));
        Files.writeString(conf.resolve("config.yaml"), yaml);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(
                "-jar", doctorJar.toString(), "--conf", conf.toString(), "--json", "--no-throughput", location));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS))
                .as("the doctor ended")
                .isTrue();
        System.out.println(String.join(" ", command) + " -> exit " + process.exitValue() + "\n" + output);
        return new Run(process.exitValue(), output);
    }

    private static final class Run {
        final int exit;
        final String output;

        Run(int exit, String output) {
            this.exit = exit;
            this.output = output;
        }
    }
}
