package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import dev.flinks3.transfer.sdk.S3RequestMetrics;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Issue 6, integrity: every upload carries a CRC32C the server checks, computed by the filesystem and
 * sent as the {@code x-amz-checksum-crc32c} header (the first uploads also carry {@code Content-MD5},
 * until the server's echo shows that it checks the CRC32C), so a byte corrupted on the way up is rejected
 * (400 BadDigest), sent again and never stored; a download that comes with a checksum is checked before
 * any byte is used; a server that rejects checksum headers gets Content-MD5 instead, and one that rejects
 * aws-chunked uploads is not bothered: with the checksum in a header, bodies go out plain.
 *
 * <p>The server is S3Proxy behind the test server's filters: S3Proxy checks checksums sent as headers
 * and echoes them. Ceph RGW, which ignores them, is {@link CephIntegrityTest}'s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IntegrityTest {

    private EmbeddedS3Server server;
    private FaultInjectingProxy proxy;
    private S3Client s3;
    private String bucket;

    @BeforeAll
    void start() {
        server = SharedS3ProxyTarget.server();
        bucket = SharedS3ProxyTarget.bucket();
        s3 = SharedS3ProxyTarget.sdkClient();
        proxy = new FaultInjectingProxy(server.endpoint());
    }

    @AfterAll
    void stop() {
        s3.close();
        proxy.close();
    }

    @AfterEach
    void disarm() {
        proxy.clear();
    }

    @ParameterizedTest(name = "chunked encoding {0}")
    @ValueSource(booleans = {true, false})
    void everyPartAndSingleObjectCarriesACrc32c(boolean chunked) throws Exception {
        try (ProxiedFileSystem fileSystem =
                fileSystem(Map.of("s3.chunked-encoding.enabled", String.valueOf(chunked)))) {
            Scenario.Context c = context(fileSystem);
            server.requestLog().clear();

            c.write(new Path(c.dir, "small"), Scenario.Payload.SMALL);
            c.write(new Path(c.dir, "large"), Scenario.Payload.LARGE);

            // The probes of If-None-Match (next to each file, removed again) upload first, then the files.
            List<RequestRecord> uploads = server.requestLog().entries().stream()
                    .filter(r -> r.key().startsWith(c.key(c.dir)))
                    .filter(r -> r.kind() == RequestKind.PUT_OBJECT || r.kind() == RequestKind.UPLOAD_PART)
                    .toList();
            assertThat(uploads)
                    .filteredOn(r -> !r.key().contains(".flinks3-if-none-match-probe-"))
                    .hasSize(1 + 3);
            assertThat(uploads).allSatisfy(upload -> {
                assertThat(upload.header("x-amz-checksum-crc32c")).isPresent();
                assertThat(upload.header("x-amz-trailer"))
                        .as("the SDK adds no trailer of its own")
                        .isEmpty();
            });
            assertThat(uploads.get(0).header("Content-MD5"))
                    .as("the first upload, before S3Proxy echoed")
                    .isPresent();
            assertThat(uploads.subList(1, uploads.size()))
                    .as("after S3Proxy echoed the CRC32C")
                    .allSatisfy(
                            upload -> assertThat(upload.header("Content-MD5")).isEmpty());
            assertThat(server.requestLog().entries(RequestKind.CREATE_MULTIPART_UPLOAD))
                    .filteredOn(r -> r.key().startsWith(c.key(c.dir)))
                    .filteredOn(r -> !r.key().contains(".flinks3-if-none-match-probe-"))
                    .singleElement()
                    .satisfies(create -> assertThat(create.header("x-amz-checksum-algorithm"))
                            .contains("CRC32C"));
            c.assertObject(new Path(c.dir, "small"), Scenario.Payload.SMALL);
            c.assertObject(new Path(c.dir, "large"), Scenario.Payload.LARGE);
        }
    }

    @ParameterizedTest(name = "{0}, chunked encoding {1}")
    @CsvSource({"PUT_OBJECT, true", "PUT_OBJECT, false", "UPLOAD_PART, true", "UPLOAD_PART, false"})
    void aByteCorruptedOnTheWayUpIsRejectedSentAgainAndNeverStored(Scenario scenario, boolean chunked)
            throws Exception {
        try (ProxiedFileSystem fileSystem =
                fileSystem(Map.of("s3.chunked-encoding.enabled", String.valueOf(chunked)))) {
            // A small and a large file first, so that the probes of If-None-Match on PutObject and on
            // CompleteMultipartUpload are done (each refuses its overwrite with 412, an error answer).
            Scenario.Context warmUp = context(fileSystem);
            warmUp.write(new Path(warmUp.dir, "small"), Scenario.Payload.SMALL);
            warmUp.write(new Path(warmUp.dir, "large"), Scenario.Payload.LARGE);
            Scenario.Context c = context(fileSystem);
            FaultRule corrupt = proxy.failNext(scenario.kind(), 1, Fault.corruptRequestBody());
            S3RequestMetrics.Snapshot before = fileSystem.metrics();

            scenario.run(c);

            S3RequestMetrics.Snapshot since = fileSystem.metrics().since(before);
            assertThat(corrupt.applied()).isEqualTo(1);
            assertThat(since.errorAnswerAttempts())
                    .as("the server rejected the corrupted body: %s", since)
                    .isEqualTo(1);
            assertThat(since.retries(scenario.operation())).as("%s", since).isEqualTo(1);
            scenario.assertSucceeded(c);
        }
    }

    @ParameterizedTest(name = "chunked encoding {0}")
    @ValueSource(booleans = {true, false})
    void aPartCorruptedInEveryAttemptFailsTheWriteAndStoresNothing(boolean chunked) throws Exception {
        try (ProxiedFileSystem fileSystem = fileSystem(
                Map.of("s3.chunked-encoding.enabled", String.valueOf(chunked), "s3.retry.max-num-retries", "2"))) {
            Scenario.Context c = context(fileSystem);
            proxy.failAlways(RequestKind.UPLOAD_PART, Fault.corruptRequestBody());

            Throwable failure = catchThrowable(() -> Scenario.UPLOAD_PART.run(c));

            assertThat(failure)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(c.uri(c.file()))
                    .hasMessageContaining("HTTP 400")
                    .hasMessageContaining(chunked ? "BadDigest" : "UploadPart");
            proxy.clear();
            c.assertNothingLeftBehind();
        }
    }

    @Test
    void aDownloadThatDoesNotMatchItsChecksumIsReadAgainBeforeAnyByteIsUsed() throws Exception {
        try (ProxiedFileSystem fileSystem = fileSystem(Map.of())) {
            Scenario.Context c = context(fileSystem);
            Scenario.GET_OBJECT.prepare(c);
            proxy.failNext(RequestKind.GET_OBJECT, 1, Fault.corruptChecksummedResponseBody());
            server.requestLog().clear();

            Scenario.GET_OBJECT.run(c);

            Scenario.GET_OBJECT.assertSucceeded(c);
            assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                    .filteredOn(r -> r.key().equals(c.key(c.file())))
                    .as("GETs: the corrupted one and the one read again")
                    .hasSize(2)
                    .allSatisfy(
                            get -> assertThat(get.header("x-amz-checksum-mode")).contains("ENABLED"));
        }
    }

    @Test
    void aDownloadCorruptedEveryTimeFailsNamingTheChecksum() throws Exception {
        try (ProxiedFileSystem fileSystem = fileSystem(Map.of())) {
            Scenario.Context c = context(fileSystem);
            Scenario.GET_OBJECT.prepare(c);
            proxy.failAlways(RequestKind.GET_OBJECT, Fault.corruptChecksummedResponseBody());

            Throwable failure = catchThrowable(() -> Scenario.GET_OBJECT.run(c));

            assertThat(failure).isInstanceOf(IOException.class).hasMessageContaining(c.uri(c.file()));
            assertThat(failure).hasStackTraceContaining("does not match its checksum");
        }
    }

    @Test
    void aServerRejectingChecksumHeadersGetsContentMd5InsteadWithOneWarning() throws Exception {
        Fault rejected =
                Fault.error(400, "InvalidArgument", "Unsupported header: flexible checksums are not supported");
        proxy.failRequestsWithHeader("x-amz-checksum", rejected);
        int before = proxy.recorded().size();

        try (dev.flinks3.it.security.CapturedLogs logs = dev.flinks3.it.security.CapturedLogs.capture("dev.flinks3");
                ProxiedFileSystem defaults = fileSystem(Map.of())) {
            for (Scenario scenario : new Scenario[] {Scenario.PUT_OBJECT, Scenario.UPLOAD_PART}) {
                Scenario.Context own = context(defaults);
                scenario.run(own);
                scenario.assertSucceeded(own);
            }
            assertThat(logs.events())
                    .filteredOn(e -> e.level() == org.apache.logging.log4j.Level.WARN)
                    .singleElement()
                    .satisfies(warning -> assertThat(warning.text()).contains("s3.checksum-validation.enabled"));
        }
        assertThat(proxy.recorded().subList(before, proxy.recorded().size()))
                .filteredOn(r -> r.kind() == RequestKind.UPLOAD_PART)
                .isNotEmpty()
                .allSatisfy(part -> assertThat(part.header("Content-MD5")).isPresent());
    }

    @Test
    void aServerRejectingAwsChunkedUploadsWorksWithDefaultsSinceBodiesGoOutPlain() throws Exception {
        FaultRule rejectChunked = proxy.failRequestsWithHeader(
                "x-amz-decoded-content-length",
                Fault.error(501, "NotImplemented", "Transfer encoding aws-chunked is not implemented"));

        try (ProxiedFileSystem defaults = fileSystem(Map.of())) {
            for (Scenario scenario : new Scenario[] {Scenario.PUT_OBJECT, Scenario.UPLOAD_PART}) {
                Scenario.Context own = context(defaults);
                scenario.run(own);
                scenario.assertSucceeded(own);
            }
        }
        assertThat(rejectChunked.applied()).as("requests sent aws-chunked").isZero();
    }

    private ProxiedFileSystem fileSystem(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(Map.of("s3.upload.min.part.size", "5mb"));
        all.putAll(options);
        return ProxiedFileSystem.create(proxy, all);
    }

    private Scenario.Context context(ProxiedFileSystem fileSystem) {
        Path dir = new Path("s3://" + bucket + "/IntegrityTest/" + UUID.randomUUID());
        return new Scenario.Context(fileSystem.fs(), s3, bucket, dir);
    }
}
