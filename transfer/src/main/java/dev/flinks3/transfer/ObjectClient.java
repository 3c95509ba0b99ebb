package dev.flinks3.transfer;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The narrow seam between the plugin's own engines (reads, the multipart upload engine, listings, deletes,
 * copies) and S3, so those engines can be unit-tested against an in-memory fake and run against the AWS SDK in
 * production ({@link dev.flinks3.transfer.sdk.SdkObjectClient SdkObjectClient}). Not every request goes
 * through it: with {@code s3.client: crt}, the S3 Transfer Manager sends the uploads of streams of unknown
 * length and the bulk downloads itself, on the same CRT-based S3 client ({@link
 * dev.flinks3.transfer.sdk.Engine Engine} says which engine a configuration runs on).
 *
 * <p>Errors: blocking methods throw {@link IOException}; asynchronous ones complete their future
 * exceptionally with an {@link IOException} (possibly wrapped in a {@link
 * java.util.concurrent.CompletionException}). A missing object is a {@link FileNotFoundException}
 * naming the {@code s3://} location; any other S3 error is an {@link S3RequestException} carrying the
 * location, the HTTP status and the S3 error code. Retries of throttling (429, 503 SlowDown), 5xx and
 * network errors happen inside the implementation, according to the configured retry strategy;
 * what reaches the caller is final.
 *
 * <p>Implementations are thread-safe. Body buffers passed in must not be modified until the returned
 * future completes.
 */
public interface ObjectClient {

    /**
     * HeadObject.
     *
     * @throws FileNotFoundException if there is no object at the location
     */
    ObjectMetadata head(S3Location location) throws IOException;

    /**
     * One ranged GET of bytes {@code [start, endExclusive)}. The stream must be closed (or aborted)
     * by the caller. {@code endExclusive} may exceed the object's length; the stream then ends at the
     * object's end.
     *
     * @throws FileNotFoundException if there is no object at the location
     * @throws java.io.EOFException if {@code start} is at or past the end of a non-empty object
     */
    RangeStream get(S3Location location, long start, long endExclusive) throws IOException;

    /**
     * {@link #get(S3Location, long, long)} of one version of the object: with {@code ifMatch}, the GET
     * sends {@code If-Match} with that ETag, so a stream whose object was replaced since its first GET
     * fails instead of mixing bytes of two versions (S3 API reference, GetObject: "If-Match").
     * Implementations that cannot send it accept only {@code null}.
     *
     * @param ifMatch the ETag the object must still have, {@code null} for whatever version is there
     * @throws S3RequestException of status 412 if the object's ETag is no longer {@code ifMatch}
     * @throws UnsupportedOperationException if {@code ifMatch} is set and the implementation cannot send it
     */
    default RangeStream get(S3Location location, long start, long endExclusive, String ifMatch) throws IOException {
        if (ifMatch != null) {
            throw new UnsupportedOperationException(getClass().getName() + " cannot send If-Match");
        }
        return get(location, start, endExclusive);
    }

    /**
     * One ranged GET of bytes {@code [start, start + dst.remaining())}, its body copied into {@code dst}
     * (heap or direct) from its position on as it arrives: no thread waits for the body, and nothing is
     * copied twice. {@code dst}'s position and limit are not moved; the result says how many bytes came.
     * Throttling, 5xx and errors before the body arrives are retried inside the implementation; a body
     * that breaks mid-way is not, it fails with the bytes copied so far (see below), for the caller to
     * ask for the rest. Cancelling the future aborts the request; {@code dst} may still be written until
     * the cancellation is seen.
     *
     * @param dst receives the bytes between its position and limit; must not be read until the future completes
     * @return a future of what was copied: {@code dst.remaining()} bytes, or fewer where the object ends first
     *     (a GET at the start of an empty object copies 0 bytes); fails with {@link FileNotFoundException}
     *     if there is no object, {@link java.io.EOFException} if {@code start} is at or past the end of a
     *     non-empty object, {@link PartialBodyException} if the body broke after it began to arrive
     * @throws IllegalArgumentException if {@code start} is negative or {@code dst} has no room
     */
    CompletableFuture<RangeRead> readInto(S3Location location, long start, ByteBuffer dst);

    /**
     * {@link #readInto(S3Location, long, ByteBuffer)} of one version of the object: with {@code ifMatch},
     * the GET sends {@code If-Match} with that ETag, as {@link #get(S3Location, long, long, String)} does.
     *
     * @param ifMatch the ETag the object must still have, {@code null} for whatever version is there
     * @return as {@link #readInto(S3Location, long, ByteBuffer)}; also fails with an {@link
     *     S3RequestException} of status 412 if the object's ETag is no longer {@code ifMatch}
     * @throws UnsupportedOperationException if {@code ifMatch} is set and the implementation cannot send it
     */
    default CompletableFuture<RangeRead> readInto(S3Location location, long start, ByteBuffer dst, String ifMatch) {
        if (ifMatch != null) {
            throw new UnsupportedOperationException(getClass().getName() + " cannot send If-Match");
        }
        return readInto(location, start, dst);
    }

    /**
     * {@link #readInto(S3Location, long, ByteBuffer, String)} for a caller that waits for the answer right away
     * (a positional read): an implementation may send the GET on the calling thread, and the returned future is
     * then complete when this returns. The answer and the failures are those of {@code readInto}.
     *
     * @param ifMatch the ETag the object must still have, {@code null} for whatever version is there
     */
    default CompletableFuture<RangeRead> readIntoWaiting(
            S3Location location, long start, ByteBuffer dst, String ifMatch) {
        return readInto(location, start, dst, ifMatch);
    }

    /**
     * One ranged GET of bytes {@code [start, endExclusive)}, its body written into {@code file} at the
     * same offset as it arrives: one range of a parallel download of an object to a local file (S3 user
     * guide, "Performance design patterns": fetch byte ranges in parallel). With {@code ifMatch}, the GET
     * sends {@code If-Match} with that ETag, so the ranges of an object replaced mid-download fail
     * instead of mixing two versions. Retried inside the implementation like {@link #readInto}; a body
     * that breaks mid-way fails the future. Cancelling the future aborts the request.
     *
     * @param endExclusive may exceed the object's length; the range then ends at the object's end
     * @param file an existing local file; only the bytes of the range are written, the file is never
     *     truncated, and a failed GET may leave some of the range written
     * @param ifMatch the ETag the object must still have, {@code null} for whatever version is there
     * @return a future of what was written (a GET at the start of an empty object writes 0 bytes and
     *     learns no ETag); fails with {@link FileNotFoundException} if there is no object, {@link
     *     java.io.EOFException} if {@code start} is at or past the end of a non-empty object, {@link
     *     S3RequestException} of status 412 if the object's ETag is no longer {@code ifMatch}, or an
     *     {@link IOException} if the file cannot be written
     * @throws IllegalArgumentException if {@code start} is negative or the range is empty
     */
    CompletableFuture<RangeDownload> readIntoFile(
            S3Location location, long start, long endExclusive, Path file, String ifMatch);

    /**
     * One page of ListObjectsV2.
     *
     * @param prefix key prefix, may be empty
     * @param delimiter {@code "/"} for a directory-like listing, {@code null} for a flat one
     * @param continuationToken the previous page's token, {@code null} for the first page
     * @param maxKeys at most this many entries (S3 caps it at 1,000)
     */
    ListPage list(String bucket, String prefix, String delimiter, String continuationToken, int maxKeys)
            throws IOException;

    /**
     * DeleteObjects of keys in one bucket, quiet mode. S3 takes up to 1,000 keys per request;
     * implementations split longer lists into several requests.
     *
     * @return the keys S3 reported as not deleted, each as {@code key (ErrorCode: message)}; empty if all went
     */
    List<String> deleteBatch(String bucket, List<String> keys) throws IOException;

    /** DeleteObject; deleting a missing key succeeds, as in S3. */
    void delete(S3Location location) throws IOException;

    /**
     * Server-side copy of a whole object; a multipart copy (UploadPartCopy) for objects larger than
     * 5 GiB.
     *
     * @param sourceLength length of the source in bytes, as known from a HEAD or listing
     * @throws FileNotFoundException if the source does not exist
     */
    void copy(S3Location source, S3Location target, long sourceLength) throws IOException;

    /**
     * PutObject of one whole object.
     *
     * @param body the bytes from position to limit; not modified by the client
     * @return a future of the object's ETag; fails with {@link java.nio.file.FileAlreadyExistsException}
     *     if {@code condition} is {@link WriteCondition#IF_NONE_MATCH} and an object exists
     */
    CompletableFuture<String> put(S3Location location, ByteBuffer body, WriteCondition condition);

    /**
     * True once the server's answers showed that it checks flexible checksums as S3 does (it echoed the
     * {@code x-amz-checksum-crc32c} of an upload): a sign of a current S3 implementation, which also
     * honours {@code If-None-Match} on CompleteMultipartUpload. False while unknown, when checksums are
     * off, or for servers that ignore them.
     */
    default boolean checksFlexibleChecksums() {
        return false;
    }

    /** CreateMultipartUpload; the future gives the upload id. */
    CompletableFuture<String> createMultipartUpload(S3Location location);

    /**
     * UploadPart.
     *
     * @param partNumber 1..10,000
     * @param body the part's bytes from position to limit; at least 5 MiB unless it is the last part
     */
    CompletableFuture<CompletedPart> uploadPart(S3Location location, String uploadId, int partNumber, ByteBuffer body);

    /**
     * CompleteMultipartUpload.
     *
     * @param parts every part in ascending part-number order
     * @return a future of the object's ETag; fails with {@link java.nio.file.FileAlreadyExistsException}
     *     if {@code condition} is {@link WriteCondition#IF_NONE_MATCH} and an object exists
     */
    CompletableFuture<String> completeMultipartUpload(
            S3Location location, String uploadId, List<CompletedPart> parts, WriteCondition condition);

    /** AbortMultipartUpload; aborting an upload that no longer exists succeeds. */
    CompletableFuture<Void> abortMultipartUpload(S3Location location, String uploadId);

    /** ListMultipartUploads under a key prefix (all pages). */
    List<PendingUpload> listMultipartUploads(String bucket, String prefix) throws IOException;

    /**
     * ListParts of one upload (all pages), in part-number order.
     *
     * @throws FileNotFoundException if the upload does not exist (completed or aborted)
     */
    List<CompletedPart> listParts(S3Location location, String uploadId) throws IOException;
}
