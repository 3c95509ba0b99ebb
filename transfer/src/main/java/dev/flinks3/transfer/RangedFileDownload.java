package dev.flinks3.transfer;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.FileTransformerConfiguration;
import software.amazon.awssdk.core.FileTransformerConfiguration.FailureBehavior;
import software.amazon.awssdk.core.FileTransformerConfiguration.FileWriteOption;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * The download of one object to one local file with parallel ranged GETs (S3 user guide,
 * "Performance design patterns": fetch byte ranges in parallel). The first GET creates the file and
 * learns the object's length and ETag from its {@code Content-Range}; the other ranges then go out
 * on a few parallel lanes, each writing at its own offset and sending {@code If-Match} with that
 * ETag, so an object replaced mid-download fails instead of mixing two versions.
 *
 * <p>Ranged GETs work on every S3-compatible server; the part-number GETs the SDK's multipart
 * download uses do not (S3Proxy answers 501). One instance per file and attempt; thread-safe.
 */
final class RangedFileDownload {

    private final S3AsyncClient s3;
    private final SseDecorator sse;
    private final S3Location source;
    private final Path target;
    private final long rangeBytes;
    private final int lanes;
    private final AtomicInteger nextRange = new AtomicInteger(1);
    private final Set<CompletableFuture<GetObjectResponse>> inFlight = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> result = new CompletableFuture<>();

    /**
     * @param s3 the client to send with; not owned
     * @param rangeBytes bytes per ranged GET
     * @param lanes ranged GETs of this file in flight at once after the first
     */
    RangedFileDownload(S3AsyncClient s3, SseDecorator sse, S3Location source, Path target, long rangeBytes, int lanes) {
        this.s3 = s3;
        this.sse = sse;
        this.source = source;
        this.target = target;
        this.rangeBytes = rangeBytes;
        this.lanes = lanes;
    }

    /**
     * Starts the download. The future completes when the file holds exactly the object's bytes, or
     * fails with the first failure ({@link java.io.FileNotFoundException} for a missing object,
     * {@link S3RequestException} otherwise, naming the location). Cancelling it cancels the GETs in
     * flight. A failed or cancelled download leaves a partial file for the caller to delete.
     */
    CompletableFuture<Void> start() {
        result.whenComplete((done, failure) -> {
            if (failure != null) {
                inFlight.forEach(get -> get.cancel(true));
            }
        });
        get(0, rangeBytes, FileWriteOption.CREATE_OR_REPLACE_EXISTING, null).whenComplete((first, failure) -> {
            if (failure == null) {
                continueAfter(first);
            } else if (S3Errors.unwrap(failure) instanceof EOFException) {
                // No range of an empty object is satisfiable: the object is empty.
                finishEmpty();
            } else {
                result.completeExceptionally(S3Errors.unwrap(failure));
            }
        });
        return result;
    }

    private void continueAfter(GetObjectResponse first) {
        long length = SdkRangeStream.objectLength(first);
        if (length < 0) {
            result.completeExceptionally(new S3RequestException("GetObject", source.toString(), 206, null,
                    "The server did not say the object's length in Content-Range", null));
            return;
        }
        if (first.contentRange() == null || length <= rangeBytes) {
            // The first answer held the whole object.
            finish(length);
            return;
        }
        int ranges = (int) ((length + rangeBytes - 1) / rangeBytes);
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int i = 0; i < Math.min(lanes, ranges - 1); i++) {
            running.add(lane(ranges, length, first.eTag()));
        }
        CompletableFuture.allOf(running.toArray(new CompletableFuture<?>[0])).whenComplete((done, failure) -> {
            if (failure == null) {
                finish(length);
            }
        });
    }

    /** Fetches ranges one after the other until none is left or the download failed. */
    private CompletableFuture<Void> lane(int ranges, long length, String eTag) {
        int index = nextRange.getAndIncrement();
        if (index >= ranges || result.isDone()) {
            return CompletableFuture.completedFuture(null);
        }
        long start = index * rangeBytes;
        return get(start, Math.min(start + rangeBytes, length), FileWriteOption.WRITE_TO_POSITION, eTag)
                .thenCompose(response -> lane(ranges, length, eTag));
    }

    private CompletableFuture<GetObjectResponse> get(long start, long endExclusive, FileWriteOption write, String eTag) {
        GetObjectRequest.Builder request = GetObjectRequest.builder()
                .bucket(source.bucket())
                .key(source.key())
                .range("bytes=" + start + "-" + (endExclusive - 1))
                .ifMatch(eTag);
        sse.decorate(request);
        FileTransformerConfiguration.Builder toFile = FileTransformerConfiguration.builder()
                .fileWriteOption(write)
                .failureBehavior(FailureBehavior.LEAVE);
        if (write == FileWriteOption.WRITE_TO_POSITION) {
            toFile.position(start);
        }
        CompletableFuture<GetObjectResponse> get;
        try {
            get = S3Errors.translating(
                    s3.getObject(request.build(), AsyncResponseTransformer.toFile(target, toFile.build())),
                    "GetObject", source);
        } catch (RuntimeException e) {
            get = CompletableFuture.failedFuture(S3Errors.translate("GetObject", source, e));
        }
        inFlight.add(get);
        CompletableFuture<GetObjectResponse> sent = get;
        get.whenComplete((response, failure) -> {
            inFlight.remove(sent);
            if (failure != null) {
                result.completeExceptionally(S3Errors.unwrap(failure));
            }
        });
        if (result.isDone()) {
            // Started while the download failed elsewhere.
            get.cancel(true);
        }
        return get;
    }

    private void finish(long length) {
        try {
            long written = Files.size(target);
            if (written != length) {
                throw new IOException("Downloading " + source + " to " + target + " wrote " + written
                        + " bytes, the object has " + length);
            }
            result.complete(null);
        } catch (IOException e) {
            result.completeExceptionally(e);
        }
    }

    private void finishEmpty() {
        try {
            Files.write(target, new byte[0]);
            result.complete(null);
        } catch (IOException e) {
            result.completeExceptionally(e);
        }
    }
}
