package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flinks3.it.CephRgw;
import dev.flinks3.it.security.CapturedLogs;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.transfer.sdk.S3RequestMetrics;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.fs.Path;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Upload integrity on a real Ceph RGW 16.2 ({@link CephRgw}) with default settings. RGW accepts
 * {@code x-amz-checksum-crc32c} but neither checks nor echoes it, and it rejects the SDK's trailing
 * checksums; it does check {@code Content-MD5}. The filesystem finds that out from the first answer and
 * sends Content-MD5 from then on (one warning naming {@code s3.checksum-validation.enabled}), so a byte
 * corrupted on the way up is still rejected (400 BadDigest), sent again and never stored.
 *
 * <p>A {@link FaultInjectingProxy} in front of the gateway records what the filesystem sends and
 * corrupts chosen request bodies.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class CephIntegrityTest {

    private FaultInjectingProxy proxy;
    private S3Client s3;
    private String bucket;

    @BeforeAll
    void start() {
        bucket = CephRgw.bucket();
        s3 = CephRgw.sdkClient();
        proxy = new FaultInjectingProxy(CephRgw.target().endpoint());
    }

    @AfterAll
    void stop() {
        if (s3 != null) {
            s3.close();
            proxy.close();
        }
    }

    @AfterEach
    void disarm() {
        proxy.clear();
    }

    @Test
    void rgwRejectsAWrongContentMd5WithBadDigestOnPutObjectAndUploadPart() {
        String key = "CephIntegrityTest/wrong-md5-" + UUID.randomUUID();
        String md5OfOtherBytes = md5(new byte[] {1, 2, 3});

        S3Exception put = catchThrowableOfType(
                S3Exception.class,
                () -> s3.putObject(
                        b -> b.bucket(bucket).key(key).contentMD5(md5OfOtherBytes),
                        RequestBody.fromBytes(new byte[100])));
        String uploadId =
                s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
        S3Exception part = catchThrowableOfType(
                S3Exception.class,
                () -> s3.uploadPart(
                        b -> b.bucket(bucket)
                                .key(key)
                                .uploadId(uploadId)
                                .partNumber(1)
                                .contentMD5(md5OfOtherBytes),
                        RequestBody.fromBytes(new byte[100])));
        s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));

        for (S3Exception rejected : List.of(put, part)) {
            assertThat(rejected.statusCode()).isEqualTo(400);
            assertThat(rejected.awsErrorDetails().errorCode()).isEqualTo("BadDigest");
        }
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket).prefix(key)).contents())
                .isEmpty();
    }

    @Test
    void rgwAcceptsAWrongCrc32cWithoutCheckingOrEchoingIt() {
        String key = "CephIntegrityTest/wrong-crc32c-" + UUID.randomUUID();

        PutObjectResponse stored = s3.putObject(
                b -> b.bucket(bucket).key(key).checksumCRC32C("AAAAAA=="), RequestBody.fromBytes(new byte[100]));

        assertThat(stored.checksumCRC32C()).as("echoed CRC32C").isNull();
        s3.deleteObject(b -> b.bucket(bucket).key(key));
    }

    @Test
    void theFirstUploadCarriesBothChecksumsThenOnlyContentMd5WithOneWarningAndNeverATrailer() throws Exception {
        try (CapturedLogs logs = CapturedLogs.capture("dev.flinks3.transfer");
                ProxiedFileSystem fileSystem = fileSystem()) {
            Scenario.Context c = context(fileSystem);

            c.write(new Path(c.dir, "small"), Scenario.Payload.SMALL);
            c.write(new Path(c.dir, "large"), Scenario.Payload.LARGE);

            // The probes of If-None-Match come first (next to each file, removed again), then the files.
            String dir = c.dir.toUri().getPath() + "/";
            List<ProxiedRequest> uploads = proxy.recorded().stream()
                    .filter(r -> r.kind() == RequestKind.PUT_OBJECT || r.kind() == RequestKind.UPLOAD_PART)
                    .filter(r -> r.url().contains(dir))
                    .toList();
            assertThat(uploads.stream()
                            .filter(r -> r.url().endsWith("/small") || r.url().contains("/large?")))
                    .hasSize(1 + 3);
            assertThat(uploads.get(0).header("x-amz-checksum-crc32c")).isPresent();
            assertThat(uploads).allSatisfy(upload -> {
                assertThat(upload.header("Content-MD5")).isPresent();
                assertThat(upload.header("x-amz-trailer")).isEmpty();
                assertThat(upload.header("x-amz-content-sha256").orElse("")).doesNotContain("TRAILER");
            });
            assertThat(uploads.subList(1, uploads.size()))
                    .allSatisfy(upload ->
                            assertThat(upload.header("x-amz-checksum-crc32c")).isEmpty());
            assertThat(logs.events())
                    .filteredOn(event -> event.level() == Level.WARN)
                    .singleElement()
                    .satisfies(warning -> assertThat(warning.text()).contains("s3.checksum-validation.enabled"));
            c.assertObject(new Path(c.dir, "small"), Scenario.Payload.SMALL);
            c.assertObject(new Path(c.dir, "large"), Scenario.Payload.LARGE);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Scenario.class,
            names = {"PUT_OBJECT", "UPLOAD_PART"})
    void aByteCorruptedOnTheWayUpIsRejectedSentAgainAndNeverStored(Scenario scenario) throws Exception {
        try (ProxiedFileSystem fileSystem = fileSystem()) {
            // Uploads first, so that the corrupted one carries Content-MD5 only, as all later ones do, and the
            // probes of conditional PutObjects and completions are done.
            Scenario.Context warmUp = context(fileSystem);
            warmUp.write(warmUp.file(), Scenario.Payload.LARGE);
            warmUp.write(new Path(warmUp.dir, "small"), Scenario.Payload.SMALL);
            Scenario.Context c = context(fileSystem);
            FaultRule corrupt = proxy.failNext(scenario.kind(), 1, Fault.corruptRequestBody());
            S3RequestMetrics.Snapshot before = fileSystem.metrics();

            scenario.run(c);

            S3RequestMetrics.Snapshot since = fileSystem.metrics().since(before);
            assertThat(corrupt.applied()).isEqualTo(1);
            // Besides the rejected body: for a multipart file, the HEAD that checks the key before the completion
            // (RGW ignores If-None-Match there) answers 404.
            int headBeforeCompletion = scenario == Scenario.UPLOAD_PART ? 1 : 0;
            assertThat(since.errorAnswerAttempts())
                    .as("RGW rejected the corrupted body: %s", since)
                    .isEqualTo(1 + headBeforeCompletion);
            assertThat(since.retries(scenario.operation())).as("%s", since).isEqualTo(1);
            scenario.assertSucceeded(c);
        }
    }

    private ProxiedFileSystem fileSystem() {
        return ProxiedFileSystem.create(
                proxy, CephRgw.flinkConfiguration(), bucket, Map.of("s3.upload.min.part.size", "5mb"));
    }

    private Scenario.Context context(ProxiedFileSystem fileSystem) {
        Path dir = new Path("s3://" + bucket + "/CephIntegrityTest/" + UUID.randomUUID());
        return new Scenario.Context(fileSystem.fs(), s3, bucket, dir);
    }

    private static String md5(byte[] bytes) {
        try {
            return Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
