package dev.flinks3.transfer;

import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * The one place where requests ask for flexible checksums (S3 user guide, "Checking object
 * integrity"). With checksums on, the SDK computes a CRC32C of each PutObject body and each part
 * and the server verifies it, so bytes corrupted in flight are never stored. A multipart upload
 * declares the algorithm at CreateMultipartUpload, each UploadPart sends its CRC32C, and
 * CompleteMultipartUpload lists every part's CRC32C (kept in {@link CompletedPart#checksumCrc32c()}).
 * GETs ask for the object's checksum ({@code x-amz-checksum-mode: ENABLED}); where the server
 * returns one for the bytes it sends (S3 does for a whole object, not for a part of it), the SDK checks
 * the body against it and fails the read on a mismatch. With checksums off (servers that reject the
 * headers) nothing is added and the SDK sends checksums only where an operation requires one.
 *
 * <p>Immutable and thread-safe.
 */
final class FlexibleChecksums {

    private final boolean enabled;

    FlexibleChecksums(boolean enabled) {
        this.enabled = enabled;
    }

    /** True if uploads carry CRC32C checksums and completion must list them. */
    boolean enabled() {
        return enabled;
    }

    PutObjectRequest.Builder decorate(PutObjectRequest.Builder request) {
        return enabled ? request.checksumAlgorithm(ChecksumAlgorithm.CRC32_C) : request;
    }

    CreateMultipartUploadRequest.Builder decorate(CreateMultipartUploadRequest.Builder request) {
        return enabled ? request.checksumAlgorithm(ChecksumAlgorithm.CRC32_C) : request;
    }

    UploadPartRequest.Builder decorate(UploadPartRequest.Builder request) {
        return enabled ? request.checksumAlgorithm(ChecksumAlgorithm.CRC32_C) : request;
    }

    GetObjectRequest.Builder decorate(GetObjectRequest.Builder request) {
        return enabled ? request.checksumMode(ChecksumMode.ENABLED) : request;
    }
}
