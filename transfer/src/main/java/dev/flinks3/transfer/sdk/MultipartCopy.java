package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.SlidingWindow;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.aws.S3Errors;
import dev.flinks3.transfer.aws.SseDecorator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;

/**
 * Server-side copy of an object too large for one CopyObject (over 5 GiB, S3 user guide "Copying
 * objects"): CreateMultipartUpload on the target, UploadPartCopy of consecutive byte ranges of the
 * source in parallel, CompleteMultipartUpload. The source's ETag is read first (HeadObject) and every
 * UploadPartCopy sends it as {@code x-amz-copy-source-if-match}, so a source replaced during the copy
 * fails it (412) instead of joining parts of two versions. A failure aborts the upload, so no part is
 * left behind; the first cause is thrown with an abort failure suppressed. Thread-safe.
 */
final class MultipartCopy {

    private final S3AsyncClient s3;
    private final SseDecorator sse;
    private final long partSizeBytes;
    private final int partsInFlight;

    /**
     * @param s3 the client to send with; not owned
     * @param partSizeBytes bytes per copied part (5 MiB..5 GiB); raised when the source would need
     *     more than 10,000 parts
     * @param partsInFlight UploadPartCopy requests in flight at once
     */
    MultipartCopy(S3AsyncClient s3, SseDecorator sse, long partSizeBytes, int partsInFlight) {
        if (partSizeBytes < UploadSettings.MIN_PART_SIZE || partSizeBytes > UploadSettings.MAX_PART_SIZE) {
            throw new IllegalArgumentException("copy part size " + partSizeBytes + " bytes is outside 5 MiB..5 GiB");
        }
        this.s3 = s3;
        this.sse = sse;
        this.partSizeBytes = partSizeBytes;
        this.partsInFlight = partsInFlight;
    }

    /**
     * Copies {@code sourceLength} bytes of {@code source} to {@code target}, replacing any object
     * there. Blocks until done; retries happen per request inside the SDK.
     *
     * @throws java.io.FileNotFoundException if the source does not exist
     * @throws IOException if a request fails (the upload is aborted first), if the source's length is
     *     no longer {@code sourceLength}, or if the source was replaced during the copy (412)
     */
    void copy(S3Location source, S3Location target, long sourceLength) throws IOException {
        HeadObjectRequest.Builder head =
                HeadObjectRequest.builder().bucket(source.bucket()).key(source.key());
        sse.decorate(head);
        HeadObjectResponse version = S3Errors.await(s3.headObject(head.build()), "HeadObject", source);
        if (version.contentLength() != null && version.contentLength() != sourceLength) {
            throw new IOException(source + " changed before it was copied: it was listed with " + sourceLength
                    + " bytes and has " + version.contentLength() + " bytes now");
        }
        String sourceETag = version.eTag();
        CreateMultipartUploadRequest.Builder create =
                CreateMultipartUploadRequest.builder().bucket(target.bucket()).key(target.key());
        sse.decorate(create);
        String uploadId = S3Errors.await(
                s3.createMultipartUpload(create.build()).thenApply(CreateMultipartUploadResponse::uploadId),
                "CreateMultipartUpload",
                target);
        try {
            List<CompletedPart> parts = SlidingWindow.run(
                    ranges(sourceLength),
                    partsInFlight,
                    range -> copyPart(source, sourceETag, target, uploadId, range));
            CompleteMultipartUploadRequest.Builder complete = CompleteMultipartUploadRequest.builder()
                    .bucket(target.bucket())
                    .key(target.key())
                    .uploadId(uploadId)
                    .multipartUpload(
                            CompletedMultipartUpload.builder().parts(parts).build());
            sse.decorate(complete);
            S3Errors.await(s3.completeMultipartUpload(complete.build()), "CompleteMultipartUpload", target);
        } catch (IOException e) {
            throw abortAfter(e, target, uploadId);
        } catch (RuntimeException e) {
            throw abortAfter(e, target, uploadId);
        }
    }

    /** Number of parts a copy of {@code length} bytes uses. */
    int partCount(long length) {
        return ranges(length).size();
    }

    private List<PartRange> ranges(long length) {
        long partSize = Math.max(partSizeBytes, ceilDiv(length, dev.flinks3.transfer.CompletedPart.MAX_PART_NUMBER));
        List<PartRange> ranges = new ArrayList<>();
        for (long first = 0; first < length; first += partSize) {
            ranges.add(new PartRange(ranges.size() + 1, first, Math.min(first + partSize, length) - 1));
        }
        return ranges;
    }

    private CompletableFuture<CompletedPart> copyPart(
            S3Location source, String sourceETag, S3Location target, String uploadId, PartRange range) {
        int partNumber = range.partNumber;
        UploadPartCopyRequest.Builder request = UploadPartCopyRequest.builder()
                .sourceBucket(source.bucket())
                .sourceKey(source.key())
                .copySourceRange("bytes=" + range.firstByte + "-" + range.lastByte)
                .copySourceIfMatch(sourceETag)
                .destinationBucket(target.bucket())
                .destinationKey(target.key())
                .uploadId(uploadId)
                .partNumber(partNumber);
        sse.decorate(request);
        return S3Errors.translating(
                s3.uploadPartCopy(request.build()),
                response -> CompletedPart.builder()
                        .partNumber(partNumber)
                        .eTag(response.copyPartResult().eTag())
                        .build(),
                "UploadPartCopy",
                source);
    }

    private <E extends Exception> E abortAfter(E cause, S3Location target, String uploadId) {
        AbortMultipartUploadRequest abort = AbortMultipartUploadRequest.builder()
                .bucket(target.bucket())
                .key(target.key())
                .uploadId(uploadId)
                .build();
        try {
            S3Errors.await(s3.abortMultipartUpload(abort), "AbortMultipartUpload", target);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
        return cause;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    /** One part of the copy: its number and the inclusive byte range of the source it copies. */
    private static final class PartRange {
        final int partNumber;
        final long firstByte;
        final long lastByte;

        PartRange(int partNumber, long firstByte, long lastByte) {
            this.partNumber = partNumber;
            this.firstByte = firstByte;
            this.lastByte = lastByte;
        }
    }
}
