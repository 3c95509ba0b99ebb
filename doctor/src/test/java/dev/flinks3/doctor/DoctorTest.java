package dev.flinks3.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flinks3.it.S3TestTarget;
import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The doctor against S3Proxy at the HTTP boundary, as it is and with the project's answer-rewrite filter making
 * it behave like the stores users run: R2 (parts but the last of one size), B2 (refused checksum headers), a
 * server that ignores {@code If-None-Match}, a missing permission, a skewed clock. Each case checks that the check
 * concerned reports what the filter does, with the switch or fix it names, and the exit code; and that the
 * probes leave nothing behind.
 */
@Timeout(120)
class DoctorTest {

    private static final String BUCKET = "doctor";

    private static EmbeddedS3Server server;
    private static S3Client s3;

    @TempDir
    Path conf;

    @BeforeAll
    static void start() {
        // Without authentication, so a rule can hide a signed header (If-None-Match) from S3Proxy.
        server = EmbeddedS3Server.builder().bucket(BUCKET).authenticate(false).start();
        s3 = new S3TestTarget(
                        "S3Proxy", server.endpoint(), server.accessKey(), server.secretKey(), server.region(), BUCKET)
                .sdkClient();
    }

    @AfterEach
    void clearRules() {
        server.answers().clear();
        server.requestLog().clear();
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
        server.close();
    }

    @Test
    void onS3ProxyEveryProbeWorksAndNothingIsLeftBehind() throws Exception {
        Result result = doctor(Map.of(), "--json", "--no-throughput");

        assertThat(result.failures()).as(result.output).isEmpty();
        assertThat(result.verdicts())
                .containsEntry("store/HEAD bucket", "ok")
                .containsEntry("store/LIST", "ok")
                .containsEntry("store/PUT", "ok")
                .containsEntry("store/ranged GET", "ok")
                .containsEntry("store/server-side copy", "ok")
                .containsEntry("store/DELETE", "ok")
                .containsEntry("store/DeleteObjects", "ok")
                .containsEntry("store/multipart upload", "ok")
                .containsEntry("store/ListMultipartUploads", "ok")
                .containsEntry("store/AbortMultipartUpload", "ok")
                .containsEntry("store/listing encoding", "ok")
                .containsEntry("store/checksum verified", "ok")
                .containsEntry("store/conditional create", "ok")
                .containsEntry("network/clock", "ok")
                .containsEntry("clean-up/objects", "ok");
        assertThat(result.json.path("exitCode").asInt()).isEqualTo(result.exitCode);
        assertThat(server.requestLog().entries(RequestKind.PUT_OBJECT))
                .as("the trailer probe sends its checksum in an aws-chunked trailer")
                .anySatisfy(put -> assertThat(put.header("x-amz-trailer")).contains("x-amz-checksum-crc32c"));
        assertThat(s3.listObjectsV2(b -> b.bucket(BUCKET).prefix("checkpoints/"))
                        .contents())
                .as("objects left under the probes' prefix")
                .isEmpty();
        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix("checkpoints/"))
                        .uploads())
                .as("uploads left open")
                .isEmpty();
        assertThat(result.output).doesNotContain(server.secretKey());
    }

    @Test
    void likeR2AStoreThatWantsUniformPartsGetsAWarningNamingTheSwitch() throws Exception {
        server.answers()
                .refuse(
                        RequestKind.COMPLETE_MULTIPART_UPLOAD,
                        DoctorTest::nonTrailingPartsDiffer,
                        AnswerRewriteFilter.ALWAYS,
                        400,
                        "InvalidPart",
                        "All non-trailing parts must have the same length.");

        Result result = doctor(Map.of(), "--json", "--no-throughput");

        assertThat(result.check("store/multipart upload").path("verdict").asText())
                .isEqualTo("warning");
        assertThat(result.check("store/multipart upload").path("fix").asText())
                .isEqualTo("s3.upload.uniform-parts: true");
        assertThat(result.exitCode).isEqualTo(Report.EXIT_WARNINGS);
    }

    @Test
    void likeB2RefusedChecksumHeadersGiveAWarningNamingTheSwitch() throws Exception {
        server.answers().refuseChecksumHeaders();

        Result result = doctor(Map.of(), "--json", "--no-throughput");

        assertThat(result.check("store/checksum header").path("verdict").asText())
                .isEqualTo("warning");
        assertThat(result.check("store/checksum header").path("fix").asText())
                .contains("s3.checksum-validation.enabled: false");
        assertThat(result.check("store/checksum verified").path("detail").asText())
                .as("a refused header is no verification")
                .contains("refuses x-amz-checksum-crc32c itself (InvalidArgument)");
        assertThat(result.check("store/aws-chunked trailer").path("verdict").asText())
                .as("a trailer is no x-amz-checksum-* header: the filter lets it through")
                .isEqualTo("ok");
        assertThat(result.verdicts())
                .as("everything else works on Content-MD5, as the plugin falls back")
                .containsEntry("store/PUT", "ok")
                .containsEntry("store/multipart upload", "ok")
                .containsEntry("store/ranged GET", "ok");
        assertThat(result.failures()).as(result.output).isEmpty();
    }

    @Test
    void aServerThatIgnoresIfNoneMatchIsReportedForTheRequestKindItIgnoresItOn() throws Exception {
        server.answers().hideHeader(RequestKind.PUT_OBJECT, "If-None-Match");

        Result result = doctor(Map.of(), "--json", "--no-throughput");

        JsonNode conditional = result.check("store/conditional create");
        assertThat(conditional.path("verdict").asText()).isEqualTo("warning");
        assertThat(conditional.path("detail").asText()).contains("ignored on PutObject");
        assertThat(conditional.path("fix").asText()).contains("s3.conditional-writes.enabled");
    }

    @Test
    void aMissingPermissionFailsTheProbeNamingTheIamAction() throws Exception {
        server.answers()
                .refuse(
                        RequestKind.DELETE_OBJECTS,
                        request -> true,
                        AnswerRewriteFilter.ALWAYS,
                        403,
                        "AccessDenied",
                        "Access Denied");

        Result result = doctor(Map.of(), "--json", "--no-throughput");

        JsonNode deleteObjects = result.check("store/DeleteObjects");
        assertThat(deleteObjects.path("verdict").asText()).isEqualTo("failure");
        assertThat(deleteObjects.path("fix").asText())
                .contains("s3:DeleteObject")
                .contains("iam-policy.json");
        assertThat(result.exitCode).isEqualTo(Report.EXIT_FAILURES);
        assertThat(result.check("clean-up/objects").path("verdict").asText())
                .as("the clean-up deletes one key at a time")
                .isEqualTo("ok");
    }

    @Test
    void aSkewedClockIsAWarningWithinFifteenMinutesAndAFailureBeyond() throws Exception {
        server.answers().skewClock(Duration.ofMinutes(5));
        assertThat(doctor(Map.of(), "--json", "--no-throughput")
                        .check("network/clock")
                        .path("verdict")
                        .asText())
                .isEqualTo("warning");

        server.answers().skewClock(Duration.ofMinutes(-20));
        Result result = doctor(Map.of(), "--json", "--no-throughput");

        JsonNode clock = result.check("network/clock");
        assertThat(clock.path("verdict").asText()).isEqualTo("failure");
        assertThat(clock.path("detail").asText()).contains("behind ours").contains("RequestTimeTooSkewed");
        assertThat(result.exitCode).isEqualTo(Report.EXIT_FAILURES);
    }

    @Test
    void configurationShowsWhereEachValueCameFromAndSuggestsTheKeyAMisspeltOneMeant() throws Exception {
        Result result = doctor(
                Map.of("s3.path.style.access", "true", "s3.conection.max", "10", "presto.s3.max-connections", "20"),
                "--no-throughput");

        assertThat(result.output)
                .contains("s3.path-style-access: true (read from s3.path.style.access)")
                .contains("unknown key s3.conection.max")
                .contains("did you mean s3.connection.max?")
                .contains("s3.secret-key: (secret, ")
                .doesNotContain(server.secretKey());
        assertThat(result.exitCode).isEqualTo(Report.EXIT_WARNINGS);
    }

    @Test
    void anInvalidValueFailsNamingTheKeyAndNoStoreProbeRuns() throws Exception {
        Result result = doctor(Map.of("s3.connection.max", "-1"), "--json");

        JsonNode settings = result.check("configuration/settings");
        assertThat(settings.path("verdict").asText()).isEqualTo("failure");
        assertThat(settings.path("detail").asText())
                .contains("s3.connection.max")
                .contains("-1");
        assertThat(result.verdicts().keySet()).noneMatch(name -> name.startsWith("store/"));
        assertThat(result.exitCode).isEqualTo(Report.EXIT_FAILURES);
    }

    @Test
    void aCommandLineItCannotUseExitsWithTheUsageCode() {
        StringWriter out = new StringWriter();
        assertThat(Doctor.run(new PrintWriter(out))).isEqualTo(Report.EXIT_USAGE);
        assertThat(Doctor.run(
                        new PrintWriter(out), "--conf", conf.resolve("missing").toString(), "gs://bucket/x"))
                .isEqualTo(Report.EXIT_USAGE);
    }

    /** The doctor on {@code config.yaml} with the server's keys and {@code extra}, for s3://doctor/checkpoints. */
    private Result doctor(Map<String, String> extra, String... options) throws IOException {
        Map<String, String> keys = new TreeMap<>(Map.of(
                "s3.endpoint", server.endpoint().toString(),
                "s3.access-key", server.accessKey(),
                "s3.secret-key", server.secretKey(),
                "s3.region", server.region()));
        if (!extra.containsKey("s3.path.style.access")) {
            keys.put("s3.path-style-access", "true");
        }
        keys.putAll(extra);
        StringBuilder yaml = new StringBuilder();
        keys.forEach(
                (key, value) -> yaml.append(key).append(": \"").append(value).append("\"\n"));
        Files.writeString(conf.resolve("config.yaml"), yaml);
        List<String> args =
                new ArrayList<>(List.of("--conf", conf.resolve("config.yaml").toString()));
        args.addAll(List.of(options));
        args.add("s3://" + BUCKET + "/checkpoints");
        StringWriter out = new StringWriter();
        int exit = Doctor.run(new PrintWriter(out), args.toArray(new String[0]));
        // In the test's output file, for a look at what each case printed.
        System.out.println("doctor " + String.join(" ", args) + " -> exit " + exit + "\n" + out);
        return new Result(exit, out.toString());
    }

    /** R2's rule: every part but the last of an upload has one size. */
    private static boolean nonTrailingPartsDiffer(HttpServletRequest complete) {
        String key = complete.getRequestURI().substring(("/" + BUCKET + "/").length());
        List<Long> sizes = server.requestLog().entries(RequestKind.UPLOAD_PART).stream()
                .filter(r -> r.key().equals(key))
                .map(DoctorTest::bodyBytes)
                .collect(Collectors.toList());
        return sizes.size() > 1
                && sizes.subList(0, sizes.size() - 1).stream().distinct().count() > 1;
    }

    private static long bodyBytes(RequestRecord upload) {
        return Long.parseLong(upload.header("x-amz-decoded-content-length")
                .or(() -> upload.header("Content-Length"))
                .orElseThrow());
    }

    private static final class Result {
        final int exitCode;
        final String output;
        final JsonNode json;

        Result(int exitCode, String output) throws IOException {
            this.exitCode = exitCode;
            this.output = output;
            this.json = output.stripLeading().startsWith("{") ? new ObjectMapper().readTree(output) : null;
        }

        Map<String, String> verdicts() {
            Map<String, String> verdicts = new TreeMap<>();
            json.path("checks")
                    .forEach(check -> verdicts.put(
                            check.path("section").asText() + "/"
                                    + check.path("name").asText(),
                            check.path("verdict").asText()));
            return verdicts;
        }

        JsonNode check(String sectionAndName) {
            for (JsonNode check : json.path("checks")) {
                if ((check.path("section").asText() + "/" + check.path("name").asText()).equals(sectionAndName)) {
                    return check;
                }
            }
            throw new AssertionError("no check " + sectionAndName + " in\n" + output);
        }

        List<String> failures() {
            List<String> failures = new ArrayList<>();
            json.path("checks").forEach(check -> {
                if (check.path("verdict").asText().equals("failure")) {
                    failures.add(check.toString());
                }
            });
            return failures;
        }
    }
}
