package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.S3Settings;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * Adds what a bucket's policy asks of every request, whichever code path built it:
 *
 * <ul>
 *   <li>the storage class ({@link UploadSettings#storageClass()}) on the requests that create an object,
 *       PutObject, CreateMultipartUpload and CopyObject (S3 API reference, {@code x-amz-storage-class});
 *       parts take the class of their upload;
 *   <li>{@code x-amz-request-payer: requester} on every request when {@link ClientSettings#requesterPays()}
 *       is set (S3 user guide, "Downloading objects from Requester Pays buckets"): S3 answers 403 to a
 *       request without it on such a bucket.
 * </ul>
 *
 * Registered on the S3 client as an SDK execution interceptor; a request-level value that the caller
 * set already is kept. Immutable and thread-safe.
 */
final class BucketRequestOptions implements ExecutionInterceptor {

    /** The header S3 reads to charge the requester (S3 API reference, "RequestPayer"). */
    static final String REQUEST_PAYER_HEADER = "x-amz-request-payer";

    /** The SDK's value of {@code UploadSettings.storageClass()}, or {@code null}. */
    private final StorageClass storageClass;

    private final boolean requesterPays;

    BucketRequestOptions(S3Settings settings) {
        String name = settings.upload().storageClass();
        this.storageClass = name == null ? null : StorageClass.fromValue(name);
        this.requesterPays = settings.client().requesterPays();
    }

    /** Whether the settings ask for anything this interceptor adds. */
    static boolean neededFor(S3Settings settings) {
        return settings.upload().storageClass() != null || settings.client().requesterPays();
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        SdkRequest request = context.request();
        if (storageClass == null) {
            return request;
        }
        if (request instanceof PutObjectRequest && ((PutObjectRequest) request).storageClassAsString() == null) {
            return ((PutObjectRequest) request)
                    .toBuilder().storageClass(storageClass).build();
        }
        if (request instanceof CreateMultipartUploadRequest
                && ((CreateMultipartUploadRequest) request).storageClassAsString() == null) {
            return ((CreateMultipartUploadRequest) request)
                    .toBuilder().storageClass(storageClass).build();
        }
        if (request instanceof CopyObjectRequest && ((CopyObjectRequest) request).storageClassAsString() == null) {
            return ((CopyObjectRequest) request)
                    .toBuilder().storageClass(storageClass).build();
        }
        return request;
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        SdkHttpRequest request = context.httpRequest();
        if (!requesterPays || request.firstMatchingHeader(REQUEST_PAYER_HEADER).isPresent()) {
            return request;
        }
        return request.toBuilder().putHeader(REQUEST_PAYER_HEADER, "requester").build();
    }

    @Override
    public String toString() {
        return "BucketRequestOptions{storageClass=" + storageClass + ", requesterPays=" + requesterPays + "}";
    }
}
