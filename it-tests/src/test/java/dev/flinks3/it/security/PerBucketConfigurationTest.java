package dev.flinks3.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.it.FlinkS3FileSystems;
import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.it.faults.ProxiedRequest;
import dev.flinks3.testserver.RequestKind;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 17, per-bucket configuration against a real server: one filesystem factory, configured once,
 * writes to two buckets of one S3Proxy with different credentials, encryption, storage class and
 * requester pays, set with both per-bucket spellings ({@code s3.bucket.<bucket>.<key>} and S3A's {@code
 * fs.s3a.bucket.<bucket>.<key>}). The proxy in front of the server records what each request carried:
 * every request for a bucket is signed with that bucket's access key and carries that bucket's headers
 * and no other's. S3Proxy implements neither SSE, storage classes other than STANDARD, nor requester
 * pays, so the proxy strips those headers after recording them.
 */
@Timeout(120)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PerBucketConfigurationTest {

    private static final String CHECKPOINTS = SharedS3ProxyTarget.bucket();
    private static final String SAVEPOINTS =
            "savepoints-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String KMS_KEY = "arn:aws:kms:us-east-1:123456789012:key/flinks3-checkpoints";

    /** The request kinds that create an object. */
    private static final Set<RequestKind> CREATING =
            EnumSet.of(RequestKind.PUT_OBJECT, RequestKind.CREATE_MULTIPART_UPLOAD, RequestKind.COPY_OBJECT);

    private UnsignedServer unsigned;

    @BeforeAll
    void start() {
        unsigned = new UnsignedServer();
        unsigned.server.createBucket(SAVEPOINTS);
        unsigned.proxy.stripHeaders("x-amz-storage-class");
        unsigned.proxy.stripHeaders("x-amz-request-payer");
    }

    @AfterAll
    void stop() throws Exception {
        unsigned.close();
    }

    @Test
    void eachBucketsRequestsCarryItsOwnCredentialsAndHeaders() throws Exception {
        Configuration config = SharedS3ProxyTarget.flinkConfiguration();
        config.setString("s3.endpoint", unsigned.proxy.endpoint().toString());
        config.setString("s3.upload.min.part.size", "5mb");
        // checkpoints: S3A's per-bucket spelling
        config.setString("fs.s3a.bucket." + CHECKPOINTS + ".access.key", "CHECKPOINTSKEY");
        config.setString("fs.s3a.bucket." + CHECKPOINTS + ".secret.key", "checkpoints-secret");
        config.setString("fs.s3a.bucket." + CHECKPOINTS + ".encryption.algorithm", "SSE-KMS");
        config.setString("fs.s3a.bucket." + CHECKPOINTS + ".encryption.key", KMS_KEY);
        // savepoints: the plugin's per-bucket spelling
        config.setString("s3.bucket." + SAVEPOINTS + ".access-key", "SAVEPOINTSKEY");
        config.setString("s3.bucket." + SAVEPOINTS + ".secret-key", "savepoints-secret");
        config.setString("s3.bucket." + SAVEPOINTS + ".sse.type", "sse-s3");
        config.setString("s3.bucket." + SAVEPOINTS + ".storage-class", "standard_ia");
        config.setString("s3.bucket." + SAVEPOINTS + ".requester-pays.enabled", "true");

        FileSystemFactory factory = FlinkS3FileSystems.factory("s3", config);
        FileSystem checkpoints = factory.create(URI.create("s3://" + CHECKPOINTS + "/"));
        FileSystem savepoints = factory.create(URI.create("s3://" + SAVEPOINTS + "/"));
        try {
            unsigned.proxy.clearRecorded();
            String dir = "PerBucketConfigurationTest/" + UUID.randomUUID();
            FileSystemWorkout.run(checkpoints, new Path("s3://" + CHECKPOINTS + "/" + dir));
            FileSystemWorkout.run(savepoints, new Path("s3://" + SAVEPOINTS + "/" + dir));
        } finally {
            FlinkS3FileSystems.close(checkpoints);
            FlinkS3FileSystems.close(savepoints);
            factory.configure(new Configuration());
        }

        List<ProxiedRequest> toCheckpoints = forBucket(CHECKPOINTS);
        List<ProxiedRequest> toSavepoints = forBucket(SAVEPOINTS);
        assertThat(toCheckpoints).extracting(ProxiedRequest::kind).containsAll(CREATING);
        assertThat(toSavepoints).extracting(ProxiedRequest::kind).containsAll(CREATING);
        assertThat(toCheckpoints.size() + toSavepoints.size())
                .isEqualTo(unsigned.proxy.recorded().size());

        assertThat(toCheckpoints).allSatisfy(request -> {
            assertThat(request.header("Authorization").orElseThrow())
                    .as("%s", request.kind())
                    .contains("Credential=CHECKPOINTSKEY/");
            assertThat(request.header("x-amz-request-payer"))
                    .as("%s", request.kind())
                    .isEmpty();
            assertThat(request.header("x-amz-storage-class"))
                    .as("%s", request.kind())
                    .isEmpty();
            if (CREATING.contains(request.kind())) {
                assertThat(request.header("x-amz-server-side-encryption"))
                        .as("%s", request.kind())
                        .contains("aws:kms");
                assertThat(request.header("x-amz-server-side-encryption-aws-kms-key-id"))
                        .contains(KMS_KEY);
            } else {
                assertThat(request.headersStartingWith(UnsignedServer.SSE_HEADERS))
                        .as("%s", request.kind())
                        .isEmpty();
            }
        });
        assertThat(toSavepoints).allSatisfy(request -> {
            assertThat(request.header("Authorization").orElseThrow())
                    .as("%s", request.kind())
                    .contains("Credential=SAVEPOINTSKEY/");
            assertThat(request.header("x-amz-request-payer"))
                    .as("%s", request.kind())
                    .contains("requester");
            if (CREATING.contains(request.kind())) {
                assertThat(request.header("x-amz-server-side-encryption"))
                        .as("%s", request.kind())
                        .contains("AES256");
                assertThat(request.header("x-amz-storage-class"))
                        .as("%s", request.kind())
                        .contains("STANDARD_IA");
            } else {
                assertThat(request.headersStartingWith(UnsignedServer.SSE_HEADERS))
                        .as("%s", request.kind())
                        .isEmpty();
                assertThat(request.header("x-amz-storage-class"))
                        .as("%s", request.kind())
                        .isEmpty();
            }
        });
    }

    /** The recorded requests whose path-style URL names {@code bucket}. */
    private List<ProxiedRequest> forBucket(String bucket) {
        return unsigned.proxy.recorded().stream()
                .filter(r -> r.url().equals("/" + bucket)
                        || r.url().startsWith("/" + bucket + "/")
                        || r.url().startsWith("/" + bucket + "?"))
                .toList();
    }
}
