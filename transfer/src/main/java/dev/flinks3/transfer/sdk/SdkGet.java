package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.PartialBodyException;
import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.aws.SseDecorator;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * A ranged GetObject through the SDK's request pipeline, for each target of a {@code GetRequest}: its retries,
 * error translation, encryption headers ({@link SseDecorator}) and checksum mode ({@link FlexibleChecksums}: the
 * object's checksum is asked for only from byte 0). {@link GetRouter} sends here what the direct GET does not
 * take. Thread-safe.
 */
final class SdkGet {

    /**
     * Smallest range streamed on the blocking client: there the body is read from the socket into the reader's
     * array on the reader's thread, at about a third of the client CPU per byte of the asynchronous client's body
     * handed over in buffers (a sequential read of 256 MiB on a LAN: 0.35x the CPU, 2.7x the speed). Smaller
     * ranges (reads after a seek) cost mostly per request, which the asynchronous pipeline, warm from every other
     * request, does more cheaply.
     */
    static final long STREAMED_RANGE_BYTES = 1024 * 1024;

    private final S3AsyncClient s3;
    private final S3Client blocking;
    private final SseDecorator sse;
    private final FlexibleChecksums checksums;
    private final SdkCalls calls;

    /**
     * @param blocking the client of the same configuration for streamed ranges of at least {@value
     *     #STREAMED_RANGE_BYTES} bytes, {@code null} to send those on {@code s3} too; not owned
     */
    SdkGet(S3AsyncClient s3, S3Client blocking, SseDecorator sse, FlexibleChecksums checksums, SdkCalls calls) {
        this.s3 = s3;
        this.blocking = blocking;
        this.sse = sse;
        this.checksums = checksums;
        this.calls = calls;
    }

    /**
     * Bytes {@code [start, endExclusive)} as a stream, once the answer's headers arrived (on the blocking client
     * for a range of at least {@value #STREAMED_RANGE_BYTES} bytes, when there is one). A body that comes with the
     * object's checksum is read in full and checked at the first read ({@link VerifiedRangeStream}). An empty
     * object yields an empty stream for {@code start == 0}.
     *
     * @throws IOException as the seam's GET fails; a 412 is an {@link S3RequestException} of status 412
     */
    RangeStream open(S3Location location, long start, long endExclusive, String ifMatch) throws IOException {
        ResponseInputStream<GetObjectResponse> body;
        try {
            body = checksums.declaringBlocking(
                    FlexibleChecksums.Declared.CHECKSUM_MODE,
                    askChecksum -> openRange(location, start, endExclusive, ifMatch, askChecksum),
                    "GetObject",
                    location);
        } catch (EOFException e) {
            if (start == 0) {
                // No range of an empty object is satisfiable, yet an empty object is a file to read.
                return SdkRangeStream.empty();
            }
            throw e;
        }
        GetObjectResponse response = body.response();
        if (response.contentRange() == null && start > 0) {
            body.abort();
            throw rangeIgnored(location);
        }
        return VerifiedRangeStream.of(
                new SdkRangeStream(body, location, SdkRangeStream.objectLength(response), response.eTag()),
                response,
                location);
    }

    private ResponseInputStream<GetObjectResponse> openRange(
            S3Location location, long start, long endExclusive, String ifMatch, boolean askChecksum)
            throws IOException {
        GetObjectRequest request = rangedGet(location, start, endExclusive, ifMatch, askChecksum);
        return blocking != null && endExclusive - start >= STREAMED_RANGE_BYTES
                ? calls.sendBlocking("GetObject", location, () -> blocking.getObject(request))
                : calls.sendAndWait(
                        "GetObject",
                        location,
                        () -> s3.getObject(request, AsyncResponseTransformer.toBlockingInputStream()));
    }

    /**
     * Bytes {@code [start, start + dst.remaining())} copied into {@code dst} on the HTTP client's thread ({@link
     * BufferBodyTransformer}). A body that comes with the object's checksum is checked by the SDK when it ends; a
     * mismatch fails the future with a {@link PartialBodyException} of 0 trusted bytes.
     */
    CompletableFuture<GetAnswer> intoBuffer(S3Location location, long start, ByteBuffer dst, String ifMatch) {
        return checksums.declaring(
                FlexibleChecksums.Declared.CHECKSUM_MODE,
                askChecksum -> intoBufferOnce(location, start, dst, ifMatch, askChecksum),
                "GetObject",
                location);
    }

    private CompletableFuture<GetAnswer> intoBufferOnce(
            S3Location location, long start, ByteBuffer dst, String ifMatch, boolean askChecksum) {
        int length = dst.remaining();
        GetObjectRequest request = rangedGet(location, start, start + length, ifMatch, askChecksum);
        BufferBodyTransformer body = new BufferBodyTransformer(location, start, dst);
        CompletableFuture<GetAnswer> answer = calls.send("GetObject", location, () -> s3.getObject(request, body));
        CompletableFuture<GetAnswer> result = new CompletableFuture<>();
        answer.whenComplete((read, failure) -> {
            if (failure == null) {
                result.complete(read);
                return;
            }
            Throwable cause = Futures.unwrap(failure);
            if (cause instanceof EOFException && start == 0) {
                // No range of an empty object is satisfiable, yet an empty object is a file to read.
                result.complete(GetAnswer.delivered(0, 0, null));
            } else if (body.brokeMidBody()) {
                result.completeExceptionally(new PartialBodyException(
                        "the body of GetObject of " + location + " from byte " + start + " broke after "
                                + body.trustedBytes() + " usable bytes: " + cause,
                        body.trustedBytes(),
                        cause));
            } else {
                result.completeExceptionally(cause);
            }
        });
        result.whenComplete((read, failure) -> {
            if (result.isCancelled()) {
                answer.cancel(true);
            }
        });
        return result;
    }

    /**
     * Bytes {@code [start, endExclusive)} written into {@code file} at the range's offset as they arrive, on the
     * HTTP client's thread ({@link FileBodyTransformer}). No checksum is asked for: the ranges are written as they
     * arrive, before any could be checked.
     */
    CompletableFuture<GetAnswer> intoFile(
            S3Location location, long start, long endExclusive, Path file, String ifMatch) {
        GetObjectRequest request = rangedGet(location, start, endExclusive, ifMatch, false);
        CompletableFuture<GetObjectResponse> answer =
                calls.send("GetObject", location, () -> s3.getObject(request, new FileBodyTransformer(file, start)));
        CompletableFuture<GetAnswer> result = answer.handle((response, failure) -> {
            if (failure == null) {
                if (response.contentRange() == null && start > 0) {
                    throw new CompletionException(rangeIgnored(location));
                }
                return GetAnswer.delivered(
                        response.contentLength(), SdkRangeStream.objectLength(response), response.eTag());
            }
            Throwable cause = Futures.unwrap(failure);
            if (cause instanceof EOFException && start == 0) {
                // No range of an empty object is satisfiable, yet an empty object is a file to write.
                return GetAnswer.delivered(0, 0, null);
            }
            throw new CompletionException(cause);
        });
        result.whenComplete((read, failure) -> {
            if (result.isCancelled()) {
                answer.cancel(true);
            }
        });
        return result;
    }

    private static S3RequestException rangeIgnored(S3Location location) {
        return new S3RequestException(
                "GetObject",
                location.toString(),
                200,
                null,
                "The server ignored the Range header and sent the whole object",
                null);
    }

    /**
     * A GetObject of bytes {@code [start, endExclusive)} with the encryption settings, and with the checksum
     * settings if {@code askChecksum}.
     */
    private GetObjectRequest rangedGet(
            S3Location location, long start, long endExclusive, String ifMatch, boolean askChecksum) {
        GetObjectRequest.Builder request = GetObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .range("bytes=" + start + "-" + (endExclusive - 1))
                .ifMatch(ifMatch);
        sse.decorate(request);
        checksums.decorate(request, askChecksum, start);
        return request.build();
    }
}
