package dev.flinks3.transfer.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.EncryptionSettings;
import dev.flinks3.transfer.Secret;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListPartsRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

class SseDecoratorTest {

    private static final byte[] RAW_KEY = new byte[32];
    private static final String CUSTOMER_KEY;
    private static final String CUSTOMER_KEY_MD5;

    static {
        for (int i = 0; i < RAW_KEY.length; i++) {
            RAW_KEY[i] = (byte) (i * 7 + 3);
        }
        CUSTOMER_KEY = Base64.getEncoder().encodeToString(RAW_KEY);
        try {
            CUSTOMER_KEY_MD5 = Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("MD5").digest(RAW_KEY));
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Every request kind, decorated, as the SDK would send it. */
    private static List<SdkRequest> everyRequestKind(SseDecorator sse) {
        return List.of(
                sse.decorate(PutObjectRequest.builder()).build(),
                sse.decorate(CreateMultipartUploadRequest.builder()).build(),
                sse.decorate(UploadPartRequest.builder()).build(),
                sse.decorate(CompleteMultipartUploadRequest.builder()).build(),
                sse.decorate(ListPartsRequest.builder()).build(),
                sse.decorate(GetObjectRequest.builder()).build(),
                sse.decorate(HeadObjectRequest.builder()).build(),
                sse.decorate(CopyObjectRequest.builder()).build(),
                sse.decorate(UploadPartCopyRequest.builder()).build());
    }

    @Test
    void noEncryptionAddsNothing() {
        for (SdkRequest request :
                everyRequestKind(new SseDecorator(EncryptionSettings.builder().build()))) {
            assertThat(field(request, "ServerSideEncryption")).as(kind(request)).isNull();
            assertThat(field(request, "SSECustomerAlgorithm")).as(kind(request)).isNull();
            assertThat(field(request, "SSECustomerKey")).as(kind(request)).isNull();
        }
    }

    @Test
    void sseS3IsSetWhereObjectsAreCreated() {
        SseDecorator sse = new SseDecorator(EncryptionSettings.builder()
                .sseType(EncryptionSettings.SseType.SSE_S3)
                .build());
        assertThat(sse.decorate(PutObjectRequest.builder()).build().serverSideEncryption())
                .isEqualTo(ServerSideEncryption.AES256);
        assertThat(sse.decorate(CreateMultipartUploadRequest.builder()).build().serverSideEncryption())
                .isEqualTo(ServerSideEncryption.AES256);
        assertThat(sse.decorate(CopyObjectRequest.builder()).build().serverSideEncryption())
                .isEqualTo(ServerSideEncryption.AES256);
        assertThat(sse.decorate(UploadPartRequest.builder()).build().sseCustomerAlgorithm())
                .isNull();
        assertThat(sse.decorate(GetObjectRequest.builder()).build().sseCustomerAlgorithm())
                .isNull();
    }

    @Test
    void sseKmsCarriesKeyAndContextWhereObjectsAreCreated() {
        SseDecorator sse = new SseDecorator(EncryptionSettings.builder()
                .sseType(EncryptionSettings.SseType.SSE_KMS)
                .sseKmsKeyId("arn:aws:kms:eu-west-1:111122223333:key/abc")
                .sseKmsEncryptionContext("eyJhIjoiYiJ9")
                .build());
        PutObjectRequest put = sse.decorate(PutObjectRequest.builder()).build();
        CreateMultipartUploadRequest create =
                sse.decorate(CreateMultipartUploadRequest.builder()).build();
        CopyObjectRequest copy = sse.decorate(CopyObjectRequest.builder()).build();
        assertThat(List.of(put.serverSideEncryption(), create.serverSideEncryption(), copy.serverSideEncryption()))
                .containsOnly(ServerSideEncryption.AWS_KMS);
        assertThat(List.of(put.ssekmsKeyId(), create.ssekmsKeyId(), copy.ssekmsKeyId()))
                .containsOnly("arn:aws:kms:eu-west-1:111122223333:key/abc");
        assertThat(List.of(
                        put.ssekmsEncryptionContext(),
                        create.ssekmsEncryptionContext(),
                        copy.ssekmsEncryptionContext()))
                .containsOnly("eyJhIjoiYiJ9");
    }

    @Test
    void sseKmsWithoutKeyIdUsesTheBucketDefault() {
        SseDecorator sse = new SseDecorator(EncryptionSettings.builder()
                .sseType(EncryptionSettings.SseType.SSE_KMS)
                .build());
        PutObjectRequest put = sse.decorate(PutObjectRequest.builder()).build();
        assertThat(put.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(put.ssekmsKeyId()).isNull();
    }

    @Test
    void sseCustomerKeyGoesOnEveryRequestKind() {
        SseDecorator sse = sseC();
        for (SdkRequest request : everyRequestKind(sse)) {
            assertThat(field(request, "SSECustomerAlgorithm")).as(kind(request)).isEqualTo("AES256");
            assertThat(field(request, "SSECustomerKey")).as(kind(request)).isEqualTo(CUSTOMER_KEY);
            assertThat(field(request, "SSECustomerKeyMD5")).as(kind(request)).isEqualTo(CUSTOMER_KEY_MD5);
            assertThat(field(request, "ServerSideEncryption")).as(kind(request)).isNull();
        }
    }

    @Test
    void sseCustomerKeyAlsoUnlocksTheCopySource() {
        SseDecorator sse = sseC();
        CopyObjectRequest copy = sse.decorate(CopyObjectRequest.builder()).build();
        assertThat(copy.copySourceSSECustomerAlgorithm()).isEqualTo("AES256");
        assertThat(copy.copySourceSSECustomerKey()).isEqualTo(CUSTOMER_KEY);
        assertThat(copy.copySourceSSECustomerKeyMD5()).isEqualTo(CUSTOMER_KEY_MD5);
        UploadPartCopyRequest partCopy =
                sse.decorate(UploadPartCopyRequest.builder()).build();
        assertThat(partCopy.copySourceSSECustomerAlgorithm()).isEqualTo("AES256");
        assertThat(partCopy.copySourceSSECustomerKey()).isEqualTo(CUSTOMER_KEY);
        assertThat(partCopy.copySourceSSECustomerKeyMD5()).isEqualTo(CUSTOMER_KEY_MD5);
    }

    @Test
    void malformedCustomerKeysAreRejectedWithoutShowingThem() {
        String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
        assertThatThrownBy(() -> new SseDecorator(sseCSettings(shortKey)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("256-bit")
                .hasMessageNotContaining(shortKey);
        assertThatThrownBy(() -> new SseDecorator(sseCSettings("not base64!")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("not base64!");
    }

    @Test
    void toStringHidesTheCustomerKey() {
        assertThat(sseC().toString()).doesNotContain(CUSTOMER_KEY).doesNotContain(CUSTOMER_KEY_MD5);
    }

    private static SseDecorator sseC() {
        return new SseDecorator(sseCSettings(CUSTOMER_KEY));
    }

    private static EncryptionSettings sseCSettings(String key) {
        return EncryptionSettings.builder()
                .sseType(EncryptionSettings.SseType.SSE_C)
                .sseCustomerKey(Secret.ofNullable(key))
                .build();
    }

    /** A field of the request by its S3 model name; {@code null} if unset. */
    private static Object field(SdkRequest request, String name) {
        return request.getValueForField(name, Object.class)
                .map(Object::toString)
                .orElse(null);
    }

    private static String kind(SdkRequest request) {
        return request.getClass().getSimpleName();
    }
}
