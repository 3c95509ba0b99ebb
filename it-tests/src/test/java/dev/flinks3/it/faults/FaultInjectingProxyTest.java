package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import java.time.Duration;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The proxy itself: transparent for every request kind the filesystem sends, and each fault does what
 * it says, seen by a plain SDK client that does not retry.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FaultInjectingProxyTest {

    private EmbeddedS3Server server;
    private FaultInjectingProxy proxy;
    private S3Client s3;
    private String bucket;
    private String prefix;

    @BeforeEach
    void freshPrefix() {
        prefix = "proxy-test/" + UUID.randomUUID() + "/";
    }

    @BeforeAll
    void start() {
        server = SharedS3ProxyTarget.server();
        bucket = SharedS3ProxyTarget.bucket();
        proxy = new FaultInjectingProxy(server.endpoint());
        s3 = S3Client.builder()
                .endpointOverride(proxy.endpoint())
                .region(Region.of(server.region()))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
                .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD).retryStrategy(b -> b.maxAttempts(1)))
                .build();
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

    @Test
    void forwardsEveryKindUnchanged() {
        byte[] data = bytes(3 * 1024 * 1024 + 17);
        s3.putObject(
                b -> b.bucket(bucket).key(prefix + "single").checksumAlgorithm(ChecksumAlgorithm.CRC32_C),
                RequestBody.fromBytes(data));
        assertThat(s3.headObject(b -> b.bucket(bucket).key(prefix + "single")).contentLength())
                .isEqualTo(data.length);
        assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key(prefix + "single"))
                        .asByteArray())
                .isEqualTo(data);
        assertThat(s3.getObjectAsBytes(
                                b -> b.bucket(bucket).key(prefix + "single").range("bytes=10-19"))
                        .asByteArray())
                .containsExactly(java.util.Arrays.copyOfRange(data, 10, 20));

        String uploadId = s3.createMultipartUpload(
                        b -> b.bucket(bucket).key(prefix + "multi").checksumAlgorithm(ChecksumAlgorithm.CRC32_C))
                .uploadId();
        byte[] part = bytes(5 * 1024 * 1024);
        var uploaded = s3.uploadPart(
                b -> b.bucket(bucket)
                        .key(prefix + "multi")
                        .uploadId(uploadId)
                        .partNumber(1)
                        .checksumAlgorithm(ChecksumAlgorithm.CRC32_C),
                RequestBody.fromBytes(part));
        s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key(prefix + "multi")
                .uploadId(uploadId)
                .multipartUpload(m -> m.parts(CompletedPart.builder()
                        .partNumber(1)
                        .eTag(uploaded.eTag())
                        .checksumCRC32C(uploaded.checksumCRC32C())
                        .build())));
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket).prefix(prefix)).contents())
                .extracting(o -> o.key())
                .containsExactly(prefix + "multi", prefix + "single");
        assertThat(s3.deleteObjects(b -> b.bucket(bucket)
                                .delete(d -> d.objects(o -> o.key(prefix + "single"), o -> o.key(prefix + "multi"))))
                        .errors())
                .isEmpty();
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket).prefix(prefix)).contents())
                .isEmpty();
    }

    @Test
    void anErrorAnswerKeepsTheRequestFromTheServer() {
        String key = prefix + "error";
        FaultRule rule = proxy.failNext(RequestKind.PUT_OBJECT, 1, Fault.slowDown());
        server.requestLog().clear();

        Throwable failure =
                catchThrowable(() -> s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("x")));

        assertThat(failure).isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.statusCode()).isEqualTo(503);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("SlowDown");
        });
        assertThat(rule.applied()).isEqualTo(1);
        assertThat(server.requestLog().entries(RequestKind.PUT_OBJECT))
                .noneMatch(r -> r.key().equals(key));
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("x"));
        assertThat(rule.applied()).as("the rule took only the next request").isEqualTo(1);
    }

    @Test
    void aResetBeforeTheResponseKeepsTheRequestFromTheServer() {
        String key = prefix + "reset";
        proxy.failNext(RequestKind.PUT_OBJECT, 1, Fault.resetBeforeResponse());
        server.requestLog().clear();

        Throwable failure =
                catchThrowable(() -> s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("x")));

        assertThat(failure).isInstanceOf(SdkClientException.class);
        assertThat(server.requestLog().entries(RequestKind.PUT_OBJECT))
                .noneMatch(r -> r.key().equals(key));
    }

    @Test
    void aDroppedResponseComesAfterTheServerActed() {
        String key = prefix + "dropped";
        proxy.failNext(RequestKind.PUT_OBJECT, 1, Fault.dropResponse());

        Throwable failure =
                catchThrowable(() -> s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("x")));

        assertThat(failure).isInstanceOf(SdkClientException.class);
        assertThat(s3.headObject(b -> b.bucket(bucket).key(key)).contentLength())
                .isEqualTo(1);
    }

    @Test
    void aResetMidBodyBreaksTheBodyAfterHalf() {
        String key = prefix + "mid-body";
        byte[] data = bytes(1024 * 1024);
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(data));
        proxy.failNext(RequestKind.GET_OBJECT, 1, Fault.resetMidBody());

        Throwable failure =
                catchThrowable(() -> s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)));

        assertThat(failure).isInstanceOf(SdkClientException.class);
        assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray())
                .isEqualTo(data);
    }

    @Test
    void aCloseMidBodyEndsTheBodyAfterHalf() {
        String key = prefix + "closed-mid-body";
        byte[] data = bytes(1024 * 1024);
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(data));
        proxy.failNext(RequestKind.GET_OBJECT, 1, Fault.closeMidBody());

        Throwable failure =
                catchThrowable(() -> s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)));

        assertThat(failure).isInstanceOf(SdkClientException.class);
        assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray())
                .isEqualTo(data);
    }

    @Test
    void aDelayHoldsTheAnswerBack() {
        String key = prefix + "delayed";
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("x"));
        proxy.failNext(RequestKind.HEAD_OBJECT, 1, Fault.delayFirstByte(Duration.ofMillis(600)));

        long start = System.nanoTime();
        s3.headObject(b -> b.bucket(bucket).key(key));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(600));
    }

    @Test
    void aCorruptedResponseBodyArrivesWithOneByteChanged() {
        String key = prefix + "corrupt-get";
        byte[] data = bytes(100_000);
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(data));
        proxy.failNext(RequestKind.GET_OBJECT, 1, Fault.corruptResponseBody());

        byte[] read = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key).range("bytes=0-99999"))
                .asByteArray();

        assertThat(read).hasSameSizeAs(data).isNotEqualTo(data);
        read[data.length / 2] ^= (byte) 0xff;
        assertThat(read).isEqualTo(data);
    }

    private static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }
}
