package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.aws.S3Errors;
import dev.flinks3.transfer.aws.SseDecorator;
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyPartResult;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;

/**
 * Server-side copy of an object too large for one CopyObject (over 5 GiB, S3 user guide "Copying objects"):
 * CreateMultipartUpload on the target (declaring CRC32C where uploads do, see {@link FlexibleChecksums}),
 * UploadPartCopy of consecutive byte ranges of the source on up to {@code partsInFlight} parallel lanes, and
 * CompleteMultipartUpload with each part's ETag (and CRC32C, where declared). Every UploadPartCopy sends the
 * source's ETag as {@code x-amz-copy-source-if-match}, so a source replaced during the copy fails it (412)
 * instead of joining parts of two versions. A failure or a cancellation aborts the upload, so no part is left
 * behind; the first cause is reported with an abort failure suppressed. Thread-safe; each {@link #copy} is
 * independent.
 */
final class MultipartCopy {

    private final S3AsyncClient s3;
    private final SseDecorator sse;
    private final long partSizeBytes;
    private final int partsInFlight;

    /**
     * @param s3 the client to send with; not owned
     * @param partSizeBytes bytes per copied part (5 MiB..5 GiB); raised when the source would need more than
     *     10,000 parts
     * @param partsInFlight UploadPartCopy requests of one copy in flight at once, at least 1
     */
    MultipartCopy(S3AsyncClient s3, SseDecorator sse, long partSizeBytes, int partsInFlight) {
        if (partSizeBytes < UploadSettings.MIN_PART_SIZE || partSizeBytes > UploadSettings.MAX_PART_SIZE) {
            throw new IllegalArgumentException("copy part size " + partSizeBytes + " bytes is outside 5 MiB..5 GiB");
        }
        if (partsInFlight < 1) {
            throw new IllegalArgumentException("copy parts in flight (" + partsInFlight + ") must be at least 1");
        }
        this.s3 = s3;
        this.sse = sse;
        this.partSizeBytes = partSizeBytes;
        this.partsInFlight = partsInFlight;
    }

    /**
     * Copies {@code sourceLength} bytes of {@code source}, the version with {@code sourceETag}, to {@code target},
     * replacing any object there. Retries happen per request inside the SDK.
     *
     * @param checksums whether the target's upload declares CRC32C
     * @return a future that completes when the target holds the copy; fails with the first failure (status 412
     *     if the source was replaced), after the upload was aborted; cancelling it cancels the requests in flight
     *     and aborts the upload
     */
    CompletableFuture<Void> copy(
            S3Location source, String sourceETag, long sourceLength, S3Location target, FlexibleChecksums checksums) {
        return new Run(source, sourceETag, ranges(sourceLength), target, checksums).start();
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

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    /** One copy: its upload, its parts in flight and its result. */
    private final class Run {
        private final S3Location source;
        private final String sourceETag;
        private final List<PartRange> ranges;
        private final S3Location target;
        private final FlexibleChecksums checksums;
        private final AtomicReferenceArray<CompletedPart> parts;
        private final AtomicInteger nextPart = new AtomicInteger();
        private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();
        private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        private final AtomicBoolean aborting = new AtomicBoolean();
        private final CompletableFuture<Void> result = new CompletableFuture<>();
        private volatile String uploadId;
        private volatile boolean declaredCrc32c;

        Run(
                S3Location source,
                String sourceETag,
                List<PartRange> ranges,
                S3Location target,
                FlexibleChecksums checksums) {
            this.source = source;
            this.sourceETag = sourceETag;
            this.ranges = ranges;
            this.target = target;
            this.checksums = checksums;
            this.parts = new AtomicReferenceArray<>(ranges.size());
        }

        CompletableFuture<Void> start() {
            result.whenComplete((done, failure) -> {
                if (result.isCancelled()) {
                    fail(new CancellationException("the multipart copy to " + target + " was cancelled"));
                }
            });
            CompletableFuture<String> created = checksums.declaring(
                    FlexibleChecksums.Declared.ALGORITHM,
                    declare -> {
                        CreateMultipartUploadRequest.Builder create = CreateMultipartUploadRequest.builder()
                                .bucket(target.bucket())
                                .key(target.key());
                        sse.decorate(create);
                        checksums.decorate(create, declare);
                        declaredCrc32c = declare;
                        return S3Errors.translating(
                                s3.createMultipartUpload(create.build()),
                                CreateMultipartUploadResponse::uploadId,
                                "CreateMultipartUpload",
                                target);
                    },
                    "CreateMultipartUpload",
                    target);
            track(created).thenAccept(id -> {
                uploadId = id;
                Throwable failed = firstFailure.get();
                if (failed != null) {
                    // The copy failed or was cancelled while the upload was being created.
                    abortThenFail(id, failed);
                    return;
                }
                List<CompletableFuture<Void>> lanes = new ArrayList<>();
                for (int i = 0; i < Math.min(partsInFlight, ranges.size()); i++) {
                    lanes.add(lane());
                }
                CompletableFuture.allOf(lanes.toArray(new CompletableFuture<?>[0]))
                        .thenRun(() -> {
                            if (firstFailure.get() == null) {
                                complete();
                            }
                        });
            });
            return result;
        }

        /** Copies parts one after the other until none is left or the copy failed. */
        private CompletableFuture<Void> lane() {
            int index = nextPart.getAndIncrement();
            if (index >= ranges.size() || firstFailure.get() != null) {
                return CompletableFuture.completedFuture(null);
            }
            return copyPart(ranges.get(index)).thenCompose(part -> {
                parts.set(index, part);
                return lane();
            });
        }

        private CompletableFuture<CompletedPart> copyPart(PartRange range) {
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
            return track(S3Errors.translating(
                    s3.uploadPartCopy(request.build()),
                    response -> {
                        CopyPartResult copied = response.copyPartResult();
                        return CompletedPart.builder()
                                .partNumber(partNumber)
                                .eTag(copied.eTag())
                                .checksumCRC32C(declaredCrc32c ? copied.checksumCRC32C() : null)
                                .build();
                    },
                    "UploadPartCopy",
                    source));
        }

        private void complete() {
            List<CompletedPart> completed = new ArrayList<>(parts.length());
            for (int i = 0; i < parts.length(); i++) {
                completed.add(parts.get(i));
            }
            CompleteMultipartUploadRequest.Builder complete = CompleteMultipartUploadRequest.builder()
                    .bucket(target.bucket())
                    .key(target.key())
                    .uploadId(uploadId)
                    .multipartUpload(
                            CompletedMultipartUpload.builder().parts(completed).build());
            sse.decorate(complete);
            track(S3Errors.translating(s3.completeMultipartUpload(complete.build()), "CompleteMultipartUpload", target))
                    .thenRun(() -> result.complete(null));
        }

        /** Keeps {@code request} among the requests to cancel while it is in flight; its failure fails the copy. */
        private <T> CompletableFuture<T> track(CompletableFuture<T> request) {
            inFlight.add(request);
            request.whenComplete((value, failure) -> {
                inFlight.remove(request);
                if (failure != null) {
                    fail(Futures.unwrap(failure));
                }
            });
            if (firstFailure.get() != null) {
                request.cancel(true);
            }
            return request;
        }

        /**
         * Fails the copy with its first failure: cancels the requests in flight, then aborts the upload (once it
         * exists) and completes the result when the abort is done, so a caller that sees the failure finds no
         * upload left. The create's completion aborts an upload created after the failure.
         */
        private void fail(Throwable cause) {
            if (!firstFailure.compareAndSet(null, cause)) {
                return;
            }
            inFlight.forEach(request -> request.cancel(true));
            String id = uploadId;
            if (id != null) {
                abortThenFail(id, cause);
            } else if (!(cause instanceof CancellationException)) {
                // No upload yet: the create failed, or its completion will abort what it created.
                result.completeExceptionally(cause);
            }
        }

        private void abortThenFail(String id, Throwable cause) {
            if (!aborting.compareAndSet(false, true)) {
                return;
            }
            AbortMultipartUploadRequest abort = AbortMultipartUploadRequest.builder()
                    .bucket(target.bucket())
                    .key(target.key())
                    .uploadId(id)
                    .build();
            // Sent despite an interrupt: a cancel from a task's interrupted thread runs this there.
            SdkCalls.despiteInterrupt(
                            () -> S3Errors.translating(s3.abortMultipartUpload(abort), "AbortMultipartUpload", target))
                    .whenComplete((done, failure) -> {
                        if (failure != null && !(Futures.unwrap(failure) instanceof FileNotFoundException)) {
                            cause.addSuppressed(Futures.unwrap(failure));
                        }
                        result.completeExceptionally(cause);
                    });
        }
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
