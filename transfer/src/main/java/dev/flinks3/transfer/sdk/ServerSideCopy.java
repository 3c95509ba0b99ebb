package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.aws.ClosedGuard;
import dev.flinks3.transfer.aws.S3Errors;
import dev.flinks3.transfer.aws.SseDecorator;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Copies inside the store (S3 user guide, "Copying objects"): one CopyObject for a source of up to {@code
 * maxSingleCopyBytes} (at most S3's 5 GiB), a {@link MultipartCopy} above it. The bytes never reach the client.
 *
 * <p>The target gets what an upload of this client would give it: the configured encryption ({@link
 * SseDecorator}, with the SSE-C key of the source as well), the storage class (added to CopyObject and
 * CreateMultipartUpload by the client's {@link BucketRequestOptions}), and CRC32C declared as the checksum
 * algorithm where uploads declare it ({@link FlexibleChecksums}), so S3 stores the copy's checksum as it stores
 * an upload's.
 *
 * <p>A CopyObject copies one version of the source at once, so it needs no condition. A multipart copy first
 * sends a HeadObject (the source's length when the caller does not know it, and its ETag), and every part sends
 * that ETag as {@code x-amz-copy-source-if-match}; a HeadObject after it checks the ETag again, for stores that ignore
 * the header. Thread-safe.
 */
final class ServerSideCopy {

    static final Logger LOG = LoggerFactory.getLogger(ServerSideCopy.class);

    /** CopyObject copies up to 5 GiB; above that S3 requires a multipart copy. */
    static final long MAX_SINGLE_COPY_BYTES = 5L * 1024 * 1024 * 1024;

    private final S3AsyncClient s3;
    private final SseDecorator sse;
    private final FlexibleChecksums checksums;
    private final MultipartCopy multipartCopy;
    private final long maxSingleCopyBytes;
    private final ClosedGuard closedGuard;

    /**
     * @param s3 the client to send with; not owned
     * @param maxSingleCopyBytes largest source copied with one CopyObject; capped at {@value #MAX_SINGLE_COPY_BYTES}
     * @param closedGuard says when the owner of {@code s3} closed, so copies fail saying so
     */
    ServerSideCopy(
            S3AsyncClient s3,
            SseDecorator sse,
            FlexibleChecksums checksums,
            MultipartCopy multipartCopy,
            long maxSingleCopyBytes,
            ClosedGuard closedGuard) {
        this.s3 = s3;
        this.sse = sse;
        this.checksums = checksums;
        this.multipartCopy = multipartCopy;
        this.maxSingleCopyBytes = Math.min(maxSingleCopyBytes, MAX_SINGLE_COPY_BYTES);
        this.closedGuard = closedGuard;
    }

    /**
     * Copies {@code source} to {@code target}, replacing any object there.
     *
     * @param sourceLength the source's length in bytes, or -1 if unknown (a HeadObject tells it)
     * @return a future that completes once the target holds the copy; cancelling it cancels the requests in
     *     flight (and aborts a multipart copy); fails with the translated S3 error (a missing source is a {@link
     *     java.io.FileNotFoundException})
     */
    CompletableFuture<Void> copy(S3Location source, S3Location target, long sourceLength) {
        if (sourceLength >= 0 && sourceLength <= maxSingleCopyBytes) {
            return copyObject(source, target);
        }
        CompletableFuture<Void> result = new CompletableFuture<>();
        AtomicReference<CompletableFuture<?>> step = new AtomicReference<>();
        CompletableFuture<HeadObjectResponse> head = head(source);
        step.set(head);
        head.whenComplete((version, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure);
                return;
            }
            long length = version.contentLength() == null ? -1 : version.contentLength();
            if (sourceLength >= 0 && length != sourceLength) {
                result.completeExceptionally(new IOException(source + " changed before it was copied: it was listed"
                        + " with " + sourceLength + " bytes and has " + length + " bytes now"));
                return;
            }
            CompletableFuture<Void> copied;
            if (length <= maxSingleCopyBytes) {
                copied = copyObject(source, target);
                step.set(copied);
            } else {
                CompletableFuture<Void> parts = closedGuard.send(
                        "UploadPartCopy",
                        source,
                        () -> multipartCopy.copy(source, version.eTag(), length, target, checksums));
                step.set(parts);
                copied = parts.thenCompose(done -> checkUnchanged(source, version.eTag(), target));
            }
            if (result.isCancelled()) {
                step.get().cancel(true);
            }
            copied.whenComplete((done, copyFailure) -> {
                if (copyFailure == null) {
                    result.complete(null);
                } else {
                    result.completeExceptionally(Futures.unwrap(copyFailure));
                }
            });
        });
        result.whenComplete((done, failure) -> {
            if (result.isCancelled()) {
                step.get().cancel(true);
            }
        });
        return result;
    }

    /**
     * Checks after a multipart copy that the source still has the ETag its parts were copied from, and deletes the
     * target if not. S3 refuses an UploadPartCopy whose {@code x-amz-copy-source-if-match} no longer matches, but
     * Ceph RGW 16.2 ignores that header (every part is copied whatever the source's ETag), so on such a store a
     * source replaced during the copy would leave a target of parts of two versions; this HEAD catches it.
     *
     * @return a future that fails with an {@link S3RequestException} of status 412 (after the target was deleted)
     *     if the source changed
     */
    private CompletableFuture<Void> checkUnchanged(S3Location source, String eTag, S3Location target) {
        return head(source).thenCompose(now -> {
            if (eTag == null || eTag.equals(now.eTag())) {
                return CompletableFuture.<Void>completedFuture(null);
            }
            S3RequestException changed = new S3RequestException(
                    "UploadPartCopy",
                    source.toString(),
                    412,
                    "PreconditionFailed",
                    "The source was replaced while it was copied (its ETag went from " + eTag + " to " + now.eTag()
                            + ") and the store did not refuse the parts; the copy at " + target + " was deleted",
                    null);
            DeleteObjectRequest delete = DeleteObjectRequest.builder()
                    .bucket(target.bucket())
                    .key(target.key())
                    .build();
            return S3Errors.translating(s3.deleteObject(delete), "DeleteObject", target)
                    .handle((deleted, failure) -> {
                        if (failure != null) {
                            changed.addSuppressed(Futures.unwrap(failure));
                        }
                        throw new CompletionException(changed);
                    });
        });
    }

    /** One CopyObject, declaring CRC32C for the target where uploads do. */
    private CompletableFuture<Void> copyObject(S3Location source, S3Location target) {
        return checksums.declaring(
                FlexibleChecksums.Declared.ALGORITHM,
                declare -> {
                    CopyObjectRequest.Builder request = CopyObjectRequest.builder()
                            .sourceBucket(source.bucket())
                            .sourceKey(source.key())
                            .destinationBucket(target.bucket())
                            .destinationKey(target.key());
                    sse.decorate(request);
                    checksums.decorate(request, declare);
                    return closedGuard.send(
                            "CopyObject",
                            source,
                            () -> S3Errors.translating(
                                    s3.copyObject(request.build()), response -> null, "CopyObject", source));
                },
                "CopyObject",
                source);
    }

    private CompletableFuture<HeadObjectResponse> head(S3Location source) {
        HeadObjectRequest.Builder request =
                HeadObjectRequest.builder().bucket(source.bucket()).key(source.key());
        sse.decorate(request);
        return closedGuard.send(
                "HeadObject", source, () -> S3Errors.translating(s3.headObject(request.build()), "HeadObject", source));
    }
}
