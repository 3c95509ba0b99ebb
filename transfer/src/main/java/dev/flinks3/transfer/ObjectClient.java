package dev.flinks3.transfer;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
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
 * <p>Interrupts: the blocking metadata calls ({@link #head}, {@link #list}, {@link #delete}, {@link
 * #listMultipartUploads}, {@link #listParts}) are short requests and finish despite an interrupt of the calling
 * thread (for up to one attempt's timeout after it), return or throw their real answer, and leave the interrupt
 * flag set: ForSt calls them from native code, where an exception thrown at Flink's cancel leaves its own cleanup
 * undone. Waits for transfers of data ({@link Futures#await} on a GET or an UploadPart) stop at the interrupt and
 * abort the request.
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
     * One ranged GetObject ({@link GetRequest}): the one GET of the seam, whatever the body's target.
     *
     * <ul>
     *   <li>{@link GetRequest.Target#STREAM}: the future completes once the answer's headers arrived, with the body
     *       as {@link GetAnswer#stream()} for the caller to read and close (or abort); not retried once the body is
     *       handed out: a failed read is for the caller to ask again.
     *   <li>{@link GetRequest.Target#BUFFER}: the body is copied into the buffer from its position on as it arrives
     *       (no thread waits for it, nothing is copied twice); the buffer's position and limit are not moved. A body
     *       that breaks mid-way is not retried: the future fails with a {@link PartialBodyException} carrying the
     *       bytes copied so far, for the caller to ask for the rest.
     *   <li>{@link GetRequest.Target#FILE}: the body is written into the file at the range's offset as it arrives
     *       (one range of a parallel download, S3 user guide "Performance design patterns"); a failed GET may leave
     *       some of the range written.
     * </ul>
     *
     * <p>Throttling, 5xx and errors before the body arrives are retried inside the implementation. An empty object
     * gives an empty answer for a range from byte 0. Cancelling the future aborts the request; a buffer or file may
     * still be written until the cancellation is seen.
     *
     * @return a future of the answer: {@link GetAnswer#bytes()} delivered (fewer than asked for only where the
     *     object ends first); fails with {@link FileNotFoundException} if there is no object, {@link
     *     java.io.EOFException} if the range starts at or past the end of a non-empty object, an {@link
     *     S3RequestException} of status 412 if the object's ETag is no longer the request's {@code If-Match}, or an
     *     {@link IOException} if the file cannot be written
     */
    CompletableFuture<GetAnswer> get(GetRequest request);

    /**
     * {@link #get(GetRequest)} of bytes {@code [start, endExclusive)} as a stream, waited for: the stream must be
     * closed (or aborted) by the caller.
     *
     * @throws FileNotFoundException if there is no object at the location
     * @throws java.io.EOFException if {@code start} is at or past the end of a non-empty object
     */
    default RangeStream get(S3Location location, long start, long endExclusive) throws IOException {
        return Futures.await(get(GetRequest.stream(location, start, endExclusive)), "GetObject", location).stream();
    }

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
     * Server-side copy of a whole object (S3 user guide, "Copying objects"): the bytes stay in the store.
     * One CopyObject up to the single-copy limit (5 GiB), above it a multipart copy whose UploadPartCopy
     * requests run in parallel and send the source's ETag as {@code x-amz-copy-source-if-match}, so a
     * source replaced during the copy fails it instead of joining parts of two versions. The target gets
     * the configured encryption, storage class and checksum; a failed or cancelled multipart copy is
     * aborted, so no part is left behind. Cancelling the future aborts the requests in flight.
     *
     * @param sourceLength length of the source in bytes, as known from a HEAD or listing; -1 if unknown
     *     (a HEAD then tells it)
     * @return a future that completes when the target holds the copy; fails with {@link
     *     FileNotFoundException} if the source does not exist, an {@link S3RequestException} of status 412
     *     if the source was replaced during a multipart copy, or of status 501 if the store does not copy
     */
    CompletableFuture<Void> copy(S3Location source, S3Location target, long sourceLength);

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
     * UploadPart of an upload whose checksum is fixed: the part carries {@code checksum}'s header whatever
     * this client's checksum settings are now, as S3 demands of every part of one upload (see {@link
     * UploadChecksum}). With {@link UploadChecksum#AS_CONFIGURED} it is {@link #uploadPart(S3Location, String,
     * int, ByteBuffer)}.
     *
     * @param partNumber 1..10,000
     * @param body the part's bytes from position to limit; at least 5 MiB unless it is the last part
     * @throws UnsupportedOperationException if the implementation cannot send {@code checksum}'s header
     */
    default CompletableFuture<CompletedPart> uploadPart(
            S3Location location, String uploadId, int partNumber, ByteBuffer body, UploadChecksum checksum) {
        if (checksum != UploadChecksum.AS_CONFIGURED) {
            throw new UnsupportedOperationException(
                    getClass().getName() + " cannot fix a part's checksum to " + checksum);
        }
        return uploadPart(location, uploadId, partNumber, body);
    }

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
