package dev.flinks3.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.it.faults.ProxiedFileSystem;
import dev.flinks3.it.faults.ProxiedRequest;
import dev.flinks3.testserver.RequestKind;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 6, server-side encryption: with SSE-S3, SSE-KMS (key id and encryption context) and SSE-C,
 * every request kind the filesystem sends carries exactly the encryption headers S3 asks for (S3 user
 * guide, "Protecting data with server-side encryption"): the encryption at rest on the requests that
 * create an object, the customer key on every request that touches object data, and nothing on the
 * others. The proxy records the headers as sent and strips them, since S3Proxy does not implement SSE.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServerSideEncryptionTest {

    private static final String KMS_KEY = "arn:aws:kms:us-east-1:123456789012:key/flinks3-test";
    private static final String CUSTOMER_KEY =
            Base64.getEncoder().encodeToString("flinks3-sse-c-test-key-32-bytes!".getBytes(StandardCharsets.US_ASCII));

    /** The request kinds that create an object and so carry SSE-S3 and SSE-KMS headers. */
    private static final Set<RequestKind> CREATING =
            EnumSet.of(RequestKind.PUT_OBJECT, RequestKind.CREATE_MULTIPART_UPLOAD, RequestKind.COPY_OBJECT);
    /** The request kinds that touch object data and so carry the SSE-C key. */
    private static final Set<RequestKind> TOUCHING_DATA = EnumSet.of(
            RequestKind.PUT_OBJECT,
            RequestKind.CREATE_MULTIPART_UPLOAD,
            RequestKind.UPLOAD_PART,
            RequestKind.COMPLETE_MULTIPART_UPLOAD,
            RequestKind.GET_OBJECT,
            RequestKind.HEAD_OBJECT,
            RequestKind.COPY_OBJECT,
            RequestKind.LIST_PARTS);
    /** Every kind the workout must have sent, so that each was checked. */
    private static final Set<RequestKind> WORKOUT = EnumSet.of(
            RequestKind.PUT_OBJECT,
            RequestKind.CREATE_MULTIPART_UPLOAD,
            RequestKind.UPLOAD_PART,
            RequestKind.COMPLETE_MULTIPART_UPLOAD,
            RequestKind.GET_OBJECT,
            RequestKind.HEAD_OBJECT,
            RequestKind.LIST_OBJECTS_V2,
            RequestKind.COPY_OBJECT,
            RequestKind.DELETE_OBJECT,
            RequestKind.DELETE_OBJECTS);

    private UnsignedServer unsigned;

    @BeforeAll
    void start() {
        unsigned = new UnsignedServer();
    }

    @AfterAll
    void stop() throws Exception {
        unsigned.close();
    }

    @Test
    void sseS3IsRequestedWhereverAnObjectIsCreated() throws Exception {
        List<ProxiedRequest> sent = workout(Map.of("s3.sse.type", "sse-s3"));

        assertThat(sent).allSatisfy(request -> {
            if (CREATING.contains(request.kind())) {
                assertThat(request.header("x-amz-server-side-encryption"))
                        .as("%s", request.kind())
                        .contains("AES256");
                assertThat(request.headersStartingWith(UnsignedServer.SSE_HEADERS))
                        .containsExactly("x-amz-server-side-encryption");
            } else {
                assertThat(request.headersStartingWith(UnsignedServer.SSE_HEADERS))
                        .as("%s", request.kind())
                        .isEmpty();
            }
        });
    }

    @Test
    void sseKmsWithKeyAndContextIsRequestedWhereverAnObjectIsCreated() throws Exception {
        List<ProxiedRequest> sent = workout(Map.of(
                "s3.sse.type", "sse-kms", "s3.sse.kms.key-id", KMS_KEY, "s3.sse.kms.encryption-context", "team=flink"));
        String context = Base64.getEncoder().encodeToString("{\"team\":\"flink\"}".getBytes(StandardCharsets.UTF_8));

        assertThat(sent).allSatisfy(request -> {
            if (CREATING.contains(request.kind())) {
                assertThat(request.header("x-amz-server-side-encryption"))
                        .as("%s", request.kind())
                        .contains("aws:kms");
                assertThat(request.header("x-amz-server-side-encryption-aws-kms-key-id"))
                        .contains(KMS_KEY);
                assertThat(request.header("x-amz-server-side-encryption-context"))
                        .contains(context);
                assertThat(request.header("x-amz-server-side-encryption-bucket-key-enabled"))
                        .as("no S3 Bucket Key unless asked for")
                        .isEmpty();
            } else {
                assertThat(request.headersStartingWith(UnsignedServer.SSE_HEADERS))
                        .as("%s", request.kind())
                        .isEmpty();
            }
        });
    }

    /**
     * Issue 45: with S3 Bucket Keys asked for, every request that creates an object carries {@code
     * x-amz-server-side-encryption-bucket-key-enabled: true} beside SSE-KMS; without, none does (the SSE-KMS
     * test above sees only its three headers).
     */
    @Test
    void sseKmsBucketKeysAreRequestedWhereverAnObjectIsCreated() throws Exception {
        List<ProxiedRequest> sent = workout(Map.of("s3.sse.type", "sse-kms", "s3.sse.kms.bucket-key.enabled", "true"));

        assertThat(sent).allSatisfy(request -> {
            if (CREATING.contains(request.kind())) {
                assertThat(request.header("x-amz-server-side-encryption"))
                        .as("%s", request.kind())
                        .contains("aws:kms");
                assertThat(request.header("x-amz-server-side-encryption-bucket-key-enabled"))
                        .as("%s", request.kind())
                        .contains("true");
            } else {
                assertThat(request.headersStartingWith(UnsignedServer.SSE_HEADERS))
                        .as("%s", request.kind())
                        .isEmpty();
            }
        });
    }

    @Test
    void sseCCustomerKeyGoesWithEveryRequestThatTouchesObjectData() throws Exception {
        List<ProxiedRequest> sent = workout(Map.of("s3.sse.type", "sse-c", "s3.sse.c.key", CUSTOMER_KEY));
        String keyMd5 = Base64.getEncoder()
                .encodeToString(MessageDigest.getInstance("MD5")
                        .digest(Base64.getDecoder().decode(CUSTOMER_KEY)));

        assertThat(sent).allSatisfy(request -> {
            if (TOUCHING_DATA.contains(request.kind())) {
                assertThat(request.header("x-amz-server-side-encryption-customer-algorithm"))
                        .as("%s", request.kind())
                        .contains("AES256");
                assertThat(request.header("x-amz-server-side-encryption-customer-key"))
                        .contains(CUSTOMER_KEY);
                assertThat(request.header("x-amz-server-side-encryption-customer-key-md5"))
                        .contains(keyMd5);
                assertThat(request.header("x-amz-server-side-encryption"))
                        .as("SSE-C is not SSE-S3")
                        .isEmpty();
            } else {
                assertThat(request.headersStartingWith(UnsignedServer.SSE_HEADERS))
                        .as("%s", request.kind())
                        .isEmpty();
            }
            if (request.kind() == RequestKind.COPY_OBJECT) {
                // The source was written with the same key.
                assertThat(request.header("x-amz-copy-source-server-side-encryption-customer-key"))
                        .contains(CUSTOMER_KEY);
                assertThat(request.header("x-amz-copy-source-server-side-encryption-customer-key-md5"))
                        .contains(keyMd5);
            }
        });
    }

    /** Options that choose the S3 client; none: the default. */
    protected Map<String, String> clientOptions() {
        return Map.of();
    }

    /** Runs the workout with the given SSE options; returns its requests, of every kind checked. */
    private List<ProxiedRequest> workout(Map<String, String> sse) throws Exception {
        Map<String, String> options = new HashMap<>(sse);
        options.putAll(clientOptions());
        options.put("s3.upload.min.part.size", "5mb");
        String dirKey = "ServerSideEncryptionTest/" + UUID.randomUUID();
        try (ProxiedFileSystem fileSystem = ProxiedFileSystem.create(unsigned.proxy, options)) {
            unsigned.proxy.clearRecorded();
            FileSystemWorkout.run(fileSystem.fs(), new Path("s3://" + SharedS3ProxyTarget.bucket() + "/" + dirKey));
        }
        // Only this filesystem talks to the server: everything recorded is the workout's.
        List<ProxiedRequest> sent = unsigned.proxy.recorded();
        assertThat(sent).extracting(ProxiedRequest::kind).containsAll(WORKOUT);
        return sent;
    }
}
