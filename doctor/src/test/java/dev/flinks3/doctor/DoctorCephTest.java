package dev.flinks3.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flinks3.it.CephRgw;
import dev.flinks3.it.S3TestTarget;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The doctor against a real Ceph RGW 16.2 (found as the it-tests find it; skipped where none runs, failing in CI
 * if it does not answer): every permission probe works, and the checks report what this RGW is known to do,
 * accept {@code x-amz-checksum-*} headers without checking them, refuse aws-chunked trailers, ignore {@code
 * If-None-Match} on CompleteMultipartUpload, each a warning naming what to do, and leave nothing behind.
 */
@Timeout(180)
class DoctorCephTest {

    @Test
    void onCephRgwThePermissionsWorkAndTheKnownDifferencesAreWarnings(@TempDir Path conf) throws Exception {
        S3TestTarget ceph = CephRgw.target();
        StringBuilder yaml = new StringBuilder();
        Map<String, String> keys = new TreeMap<>(ceph.flinkConfiguration().toMap());
        keys.forEach(
                (key, value) -> yaml.append(key).append(": \"").append(value).append("\"\n"));
        Files.writeString(conf.resolve("config.yaml"), yaml);
        String prefix = "doctor-" + System.nanoTime();
        StringWriter out = new StringWriter();

        int exit = Doctor.run(
                new PrintWriter(out),
                "--conf",
                conf.resolve("config.yaml").toString(),
                "--json",
                "--no-throughput",
                "s3://" + ceph.bucket() + "/" + prefix);

        JsonNode report = new ObjectMapper().readTree(out.toString());
        Map<String, JsonNode> checks = new TreeMap<>();
        report.path("checks")
                .forEach(c -> checks.put(
                        c.path("section").asText() + "/" + c.path("name").asText(), c));
        assertThat(checks.values())
                .as(out.toString())
                .noneMatch(c -> c.path("verdict").asText().equals("failure"));
        assertThat(checks.get("store/checksum header").path("verdict").asText()).isEqualTo("warning");
        assertThat(checks.get("store/checksum verified").path("verdict").asText())
                .isEqualTo("warning");
        assertThat(checks.get("store/aws-chunked trailer").path("verdict").asText())
                .isEqualTo("warning");
        assertThat(checks.get("store/conditional create").path("detail").asText())
                .contains("ignored on CompleteMultipartUpload");
        assertThat(checks.get("store/multipart upload").path("verdict").asText())
                .isEqualTo("ok");
        assertThat(exit).isEqualTo(Report.EXIT_WARNINGS);
        try (S3Client s3 = ceph.sdkClient()) {
            assertThat(s3.listObjectsV2(b -> b.bucket(ceph.bucket()).prefix(prefix + "/"))
                            .contents())
                    .as("objects left behind")
                    .isEmpty();
        }
    }
}
