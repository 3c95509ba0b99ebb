package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Issue 12, answers of production S3 stores that SDK v2 clients get wrong, each given by the proxy in
 * front of the real S3Proxy: a server that requires {@code Content-MD5} on DeleteObjects (older MinIO,
 * Ceph, appliances), S3's retryable 409 {@code ConditionalRequestConflict}, an expired session token,
 * and a 400 without an error code (Ceph RGW rejecting a request form it does not take).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServerAnswersTest {

    private final String bucket = SharedS3ProxyTarget.bucket();
    private final Path dir = new Path("s3://" + bucket + "/ServerAnswersTest/" + UUID.randomUUID());
    private FaultInjectingProxy proxy;

    @BeforeEach
    void startProxy() {
        proxy = new FaultInjectingProxy(SharedS3ProxyTarget.server().endpoint());
    }

    @AfterEach
    void stopProxy() {
        proxy.close();
    }

    @Test
    void recursiveDeleteSendsContentMd5ToAServerThatRequiresIt() throws Exception {
        FaultRule missingMd5 = proxy.failRequestsWithoutHeader(
                RequestKind.DELETE_OBJECTS,
                "content-md5",
                Fault.error(400, "MissingContentMD5", "Missing required header for this request: Content-MD5"));
        try (ProxiedFileSystem fileSystem = ProxiedFileSystem.create(proxy, Map.of());
                S3Client s3 = SharedS3ProxyTarget.sdkClient()) {
            for (int i = 0; i < 5; i++) {
                write(fileSystem, new Path(dir, "sub/file-" + i), WriteMode.NO_OVERWRITE);
            }

            assertThat(fileSystem.fs().delete(dir, true)).isTrue();

            assertThat(missingMd5.applied())
                    .as("DeleteObjects without Content-MD5")
                    .isZero();
            List<ProxiedRequest> deletes = proxy.recorded().stream()
                    .filter(r -> r.kind() == RequestKind.DELETE_OBJECTS)
                    .toList();
            assertThat(deletes)
                    .isNotEmpty()
                    .allSatisfy(r -> assertThat(r.header("Content-MD5")).isPresent());
            List<S3Object> left = s3.listObjectsV2(b -> b.bucket(bucket).prefix(key(dir) + "/"))
                    .contents();
            assertThat(left).as("objects left under %s", dir).isEmpty();
        }
    }

    @Test
    void conditionalRequestConflictIsRetried() throws Exception {
        Path file = new Path(dir, "conditional");
        try (ProxiedFileSystem fileSystem = ProxiedFileSystem.create(proxy, Map.of());
                S3Client s3 = SharedS3ProxyTarget.sdkClient()) {
            // The first conditional write probes If-None-Match on PutObject; the conflict is for the file's own.
            write(fileSystem, new Path(dir, "first"), WriteMode.NO_OVERWRITE);
            long before = putAttempts();
            FaultRule conflict = proxy.failNext(
                    RequestKind.PUT_OBJECT,
                    1,
                    Fault.error(
                            409,
                            "ConditionalRequestConflict",
                            "A conflicting operation occurred. If using PutObject you can retry the request."));

            write(fileSystem, file, WriteMode.NO_OVERWRITE);

            assertThat(conflict.applied()).isEqualTo(1);
            assertThat(putAttempts() - before).as("PutObject attempts").isEqualTo(2);
            assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key(file))).asUtf8String())
                    .isEqualTo(file.getName());
        }
    }

    @Test
    void aConditionalRequestConflictOnCompleteMultipartUploadIsFinalAndLeavesNothing() throws Exception {
        Path file = new Path(dir, "conditional-multipart");
        try (ProxiedFileSystem fileSystem = ProxiedFileSystem.create(proxy, Map.of("s3.upload.min.part.size", "5mb"));
                S3Client s3 = SharedS3ProxyTarget.sdkClient()) {
            // The first conditional multipart write probes If-None-Match on completions; the conflict is the file's.
            writeMultipart(fileSystem, new Path(dir, "first"));
            long completionsBefore = completions();
            FaultRule conflict = proxy.failNext(
                    RequestKind.COMPLETE_MULTIPART_UPLOAD,
                    1,
                    Fault.error(409, "ConditionalRequestConflict", "A conflicting operation occurred."));

            Throwable failure = catchThrowable(() -> writeMultipart(fileSystem, file));

            assertThat(failure).isInstanceOf(IOException.class);
            assertThat(failure.getMessage())
                    .contains(
                            "CompleteMultipartUpload",
                            file.toString(),
                            "HTTP 409",
                            "ConditionalRequestConflict",
                            "multipart upload to be started again");
            assertThat(conflict.applied()).isEqualTo(1);
            assertThat(completions() - completionsBefore)
                    .as("CompleteMultipartUpload attempts: S3 asks for the upload again, not for a retry")
                    .isEqualTo(1);
            assertThat(s3.listObjectsV2(b -> b.bucket(bucket).prefix(key(file))).contents())
                    .isEmpty();
            assertThat(s3.listMultipartUploads(b -> b.bucket(bucket).prefix(key(file)))
                            .uploads())
                    .isEmpty();
        }
    }

    @Test
    void expiredOrInvalidSessionTokenNamesTheSessionTokenKey() throws Exception {
        for (String code : new String[] {"ExpiredToken", "InvalidToken"}) {
            proxy.clear();
            proxy.clearRecorded();
            proxy.failAlways(
                    RequestKind.PUT_OBJECT, Fault.error(400, code, "The provided token has expired or is malformed."));
            Path file = new Path(dir, "with-" + code);

            String message = failedWrite(Map.of("s3.session-token", "a-token-that-expired"), file);

            assertThat(message)
                    .as(code)
                    .contains("PutObject", file.toString(), "HTTP 400", code, "s3.session-token")
                    .doesNotContain("a-token-that-expired");
            assertThat(putAttempts()).as("%s is not retried", code).isEqualTo(1);
        }
    }

    @Test
    void a400WithoutErrorCodeIsNotRetriedAndSaysWhatUsuallyFixesIt() throws Exception {
        FaultRule rejected = proxy.failAlways(RequestKind.PUT_OBJECT, Fault.emptyAnswer(400));
        Path file = new Path(dir, "rejected");

        String message = failedWrite(Map.of(), file);

        assertThat(message)
                .contains(
                        "PutObject",
                        file.toString(),
                        "HTTP 400",
                        "no S3 error code",
                        "s3.checksum-validation.enabled",
                        "s3.chunked-encoding.enabled");
        assertThat(rejected.applied())
                .as("attempts of a 400 that retrying cannot fix")
                .isEqualTo(1);
    }

    @Test
    void aPayloadHashMismatchOnTheResentBodyTooIsNotRetriedFurther() throws Exception {
        // Ceph RGW answers so to every aws-chunked upload with a trailing checksum.
        FaultRule rejected = proxy.failAlways(
                RequestKind.PUT_OBJECT,
                Fault.error(
                        400,
                        "XAmzContentSHA256Mismatch",
                        "The provided 'x-amz-content-sha256' header does not match what was computed."));
        Path file = new Path(dir, "rgw-rejected");

        String message = failedWrite(Map.of(), file);

        assertThat(message)
                .contains(
                        "PutObject",
                        file.toString(),
                        "HTTP 400",
                        "XAmzContentSHA256Mismatch",
                        "s3.checksum-validation.enabled: false");
        assertThat(rejected.applied())
                .as("attempts: one resend, as for a body corrupted in flight")
                .isEqualTo(2);
    }

    /** Writes {@code file} through a filesystem with {@code options}, which must fail; returns the message. */
    private String failedWrite(Map<String, String> options, Path file) throws Exception {
        try (ProxiedFileSystem fileSystem = ProxiedFileSystem.create(proxy, options)) {
            Throwable failure = catchThrowable(() -> write(fileSystem, file, WriteMode.OVERWRITE));
            assertThat(failure).as("writing %s", file).isInstanceOf(IOException.class);
            return failure.getMessage();
        }
    }

    private long completions() {
        return proxy.recorded().stream()
                .filter(r -> r.kind() == RequestKind.COMPLETE_MULTIPART_UPLOAD)
                .count();
    }

    /** A file of two parts of 5 MiB parts, written with no overwrite. */
    private static void writeMultipart(ProxiedFileSystem fileSystem, Path file) throws IOException {
        try (FSDataOutputStream out = fileSystem.fs().create(file, WriteMode.NO_OVERWRITE)) {
            out.write(new byte[(5 << 20) + 1]);
        }
    }

    private long putAttempts() {
        return proxy.recorded().stream()
                .filter(r -> r.kind() == RequestKind.PUT_OBJECT)
                .count();
    }

    /** A small file whose content is its name: one PutObject. */
    private static void write(ProxiedFileSystem fileSystem, Path file, WriteMode mode) throws IOException {
        try (FSDataOutputStream out = fileSystem.fs().create(file, mode)) {
            out.write(file.getName().getBytes(StandardCharsets.UTF_8));
        }
    }

    private static String key(Path path) {
        return path.toUri().getPath().substring(1);
    }
}
