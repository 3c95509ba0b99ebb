package dev.flinks3.transfer;

import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * The one place where uploads ask for a flexible checksum (S3 user guide, "Checking object
 * integrity"). With checksums on, the SDK computes a CRC32C of each PutObject body and each part
 * and the server verifies it, so bytes corrupted in flight are never stored. A multipart upload
 * declares the algorithm at CreateMultipartUpload, each UploadPart sends its CRC32C, and
 * CompleteMultipartUpload lists every part's CRC32C (kept in {@link CompletedPart#checksumCrc32c()}).
 * With checksums off (servers that reject the headers) nothing is added and the SDK sends checksums
 * only where an operation requires one.
 *
 * <p>Immutable and thread-safe.
 */
final class UploadChecksums {

    private final boolean enabled;

    UploadChecksums(boolean enabled) {
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
}
