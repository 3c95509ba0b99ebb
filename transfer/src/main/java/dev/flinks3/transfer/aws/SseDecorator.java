package dev.flinks3.transfer.aws;

import dev.flinks3.transfer.EncryptionSettings;
import dev.flinks3.transfer.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.function.Consumer;
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

/**
 * The one place where server-side encryption is added to requests, following the S3 user guide
 * ("Protecting data with server-side encryption"):
 *
 * <ul>
 *   <li>SSE-S3 and SSE-KMS are chosen when an object is created: PutObject, CreateMultipartUpload
 *       and CopyObject carry {@code x-amz-server-side-encryption} (plus, for KMS, the key id, the
 *       encryption context and, when asked for, the S3 Bucket Key); parts and reads need nothing.
 *   <li>SSE-C needs the customer key on every request that touches object data: PutObject,
 *       CreateMultipartUpload, UploadPart, GetObject, HeadObject, CopyObject and UploadPartCopy
 *       (target key, and copy-source key since the source was written with it), and also
 *       ListParts and CompleteMultipartUpload, which S3 asks for when parts carry checksums.
 * </ul>
 *
 * <p>Every {@code decorate} method changes the builder it is given and returns it. Immutable and
 * thread-safe; the customer key is held only as the SDK needs it and never printed.
 */
public final class SseDecorator {

    /** SSE-C's only algorithm. */
    static final String SSE_C_ALGORITHM = "AES256";

    private static final int SSE_C_KEY_BYTES = 32;

    private final EncryptionSettings.SseType type;
    private final String kmsKeyId;
    private final String kmsEncryptionContext;
    private final Secret customerKey;
    private final String customerKeyMd5;
    private final boolean bucketKey;

    /**
     * @throws IllegalArgumentException if SSE-C is configured with a key that is not a base64
     *     encoded 256-bit key (the message does not contain the key)
     */
    public SseDecorator(EncryptionSettings settings) {
        this.type = settings.sseType();
        this.kmsKeyId = settings.sseKmsKeyId();
        this.kmsEncryptionContext = settings.sseKmsEncryptionContext();
        this.customerKey = settings.sseCustomerKey();
        this.customerKeyMd5 = customerKey == null ? null : md5OfKey(customerKey);
        this.bucketKey = settings.sseKmsBucketKey();
    }

    public PutObjectRequest.Builder decorate(PutObjectRequest.Builder request) {
        encryptAtRest(
                request::serverSideEncryption,
                request::ssekmsKeyId,
                request::ssekmsEncryptionContext,
                request::bucketKeyEnabled);
        customerKey(request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        return request;
    }

    public CreateMultipartUploadRequest.Builder decorate(CreateMultipartUploadRequest.Builder request) {
        encryptAtRest(
                request::serverSideEncryption,
                request::ssekmsKeyId,
                request::ssekmsEncryptionContext,
                request::bucketKeyEnabled);
        customerKey(request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        return request;
    }

    public UploadPartRequest.Builder decorate(UploadPartRequest.Builder request) {
        customerKey(request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        return request;
    }

    public CompleteMultipartUploadRequest.Builder decorate(CompleteMultipartUploadRequest.Builder request) {
        customerKey(request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        return request;
    }

    public ListPartsRequest.Builder decorate(ListPartsRequest.Builder request) {
        customerKey(request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        return request;
    }

    public GetObjectRequest.Builder decorate(GetObjectRequest.Builder request) {
        customerKey(request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        return request;
    }

    public HeadObjectRequest.Builder decorate(HeadObjectRequest.Builder request) {
        customerKey(request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        return request;
    }

    public CopyObjectRequest.Builder decorate(CopyObjectRequest.Builder request) {
        encryptAtRest(
                request::serverSideEncryption,
                request::ssekmsKeyId,
                request::ssekmsEncryptionContext,
                request::bucketKeyEnabled);
        customerKey(request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        customerKey(
                request::copySourceSSECustomerAlgorithm,
                request::copySourceSSECustomerKey,
                request::copySourceSSECustomerKeyMD5);
        return request;
    }

    /** The encryption of the target is set by the CreateMultipartUpload of the multipart copy. */
    public UploadPartCopyRequest.Builder decorate(UploadPartCopyRequest.Builder request) {
        customerKey(request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        customerKey(
                request::copySourceSSECustomerAlgorithm,
                request::copySourceSSECustomerKey,
                request::copySourceSSECustomerKeyMD5);
        return request;
    }

    private void encryptAtRest(
            Consumer<ServerSideEncryption> algorithm,
            Consumer<String> kmsKey,
            Consumer<String> kmsContext,
            Consumer<Boolean> bucketKeyEnabled) {
        if (type == EncryptionSettings.SseType.SSE_S3) {
            algorithm.accept(ServerSideEncryption.AES256);
        } else if (type == EncryptionSettings.SseType.SSE_KMS) {
            algorithm.accept(ServerSideEncryption.AWS_KMS);
            if (kmsKeyId != null) {
                kmsKey.accept(kmsKeyId);
            }
            if (kmsEncryptionContext != null) {
                kmsContext.accept(kmsEncryptionContext);
            }
            if (bucketKey) {
                bucketKeyEnabled.accept(Boolean.TRUE);
            }
        }
    }

    private void customerKey(Consumer<String> algorithm, Consumer<String> key, Consumer<String> keyMd5) {
        if (type == EncryptionSettings.SseType.SSE_C) {
            algorithm.accept(SSE_C_ALGORITHM);
            key.accept(customerKey.reveal());
            keyMd5.accept(customerKeyMd5);
        }
    }

    /** S3 checks the key's integrity with the base64 MD5 of the raw 256-bit key. */
    private static String md5OfKey(Secret base64Key) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64Key.reveal().getBytes(StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the SSE-C customer key is not valid base64");
        }
        if (raw.length != SSE_C_KEY_BYTES) {
            throw new IllegalArgumentException("the SSE-C customer key decodes to " + raw.length
                    + " bytes; SSE-C needs a 256-bit (" + SSE_C_KEY_BYTES + " bytes) AES key");
        }
        try {
            return Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("MD5").digest(raw));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required by every Java platform", e);
        }
    }

    @Override
    public String toString() {
        return "SseDecorator{" + type + (kmsKeyId == null ? "" : ", kmsKeyId=" + kmsKeyId)
                + (bucketKey ? ", bucketKey" : "") + "}";
    }
}
