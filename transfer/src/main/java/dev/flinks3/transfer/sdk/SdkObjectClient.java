package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.ListPage;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.PendingUpload;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.SlidingWindow;
import dev.flinks3.transfer.UploadChecksum;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.XmlText;
import dev.flinks3.transfer.aws.ClosedGuard;
import dev.flinks3.transfer.aws.S3Errors;
import dev.flinks3.transfer.aws.SseDecorator;
import dev.flinks3.transfer.options.S3Options;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.LegacyMd5Plugin;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ListPartsRequest;
import software.amazon.awssdk.services.s3.model.ListPartsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * {@link ObjectClient} on the AWS SDK v2 asynchronous S3 client: one S3 request per call (a
 * multipart copy and a batch delete of more than 1,000 keys make several). Retries of throttling,
 * 5xx and network errors happen inside the SDK according to the client's retry strategy; failures
 * are translated by {@link S3Errors}. Server-side encryption is added by {@link SseDecorator},
 * checksums (CRC32C or Content-MD5 of each upload body, computed here) by {@link FlexibleChecksums}.
 *
 * <p>Thread-safe. Futures complete on the client's future-completion executor, never on an
 * event-loop thread.
 */
public final class SdkObjectClient implements ObjectClient {

    private static final Logger LOG = LoggerFactory.getLogger(SdkObjectClient.class);

    /** CopyObject copies up to 5 GiB; above that S3 requires a multipart copy. */
    static final long MAX_SINGLE_COPY_BYTES = ServerSideCopy.MAX_SINGLE_COPY_BYTES;
    /** DeleteObjects takes at most 1,000 keys per request. */
    static final int MAX_KEYS_PER_DELETE = 1000;

    private static final String IF_NONE_MATCH_ANY = "*";
    /**
     * Adds {@code Content-MD5} to DeleteObjects. S3 requires a checksum of its body and takes the CRC
     * the SDK sends since 2.30; older MinIO, Ceph and several appliances require {@code Content-MD5}
     * and answer 400 MissingContentMD5 without it. Only this request gets the plugin: the MD5 is the
     * SDK's, computed over the marshalled XML body.
     */
    private static final SdkPlugin CONTENT_MD5 = LegacyMd5Plugin.create();

    private static final int DELETE_REQUESTS_IN_FLIGHT = 4;

    /**
     * Per-key codes of a DeleteObjects answer that S3 documents as transient (the key was not deleted
     * this time): those keys are sent again.
     */
    static final Set<String> RETRYABLE_KEY_ERRORS =
            Set.of("InternalError", "SlowDown", "ServiceUnavailable", "RequestTimeout", "OperationAborted");
    /** Attempts per key reported with a retryable code, the first included. */
    static final int DELETE_KEY_ATTEMPTS = 5;

    private static final long DELETE_KEY_BASE_BACKOFF_MS = 100;
    private static final long DELETE_KEY_MAX_BACKOFF_MS = 5_000;

    private final S3AsyncClient s3;
    private final GetRouter gets;
    private final SdkCalls calls;
    private final SseDecorator sse;
    private final FlexibleChecksums checksums;
    private final ServerSideCopy copies;
    private final ClosedGuard closedGuard;
    private final RetriedCreates retriedCreates;

    /**
     * @param s3 the client to send with; not owned, the caller closes it
     * @param blocking the client of the same configuration for streamed ranges the caller reads ({@link SdkGet}),
     *     {@code null} to send those on {@code s3} too; not owned
     * @param direct the path for ranged GETs without the SDK's pipeline, {@code null} to send those on
     *     {@code s3} too
     * @param blockingReads the threads that run direct GETs for callers that do not wait for them (the
     *     read-ahead); {@code null} without {@code direct}; not owned
     * @param sse the encryption to apply to every request
     * @param checksums whether uploads carry CRC32C checksums and GETs ask for them
     * @param multipartCopy the copy used for sources larger than {@code maxSingleCopyBytes}
     * @param maxSingleCopyBytes largest source copied with one CopyObject, at most 5 GiB
     * @param closedGuard says when the owner of {@code s3} closed, so requests fail saying so
     * @param scheduler runs delayed work of this client (the late listing of {@link RetriedCreates}); not owned
     */
    SdkObjectClient(
            S3AsyncClient s3,
            S3Client blocking,
            DirectRangedGet direct,
            ExecutorService blockingReads,
            SseDecorator sse,
            FlexibleChecksums checksums,
            MultipartCopy multipartCopy,
            long maxSingleCopyBytes,
            ClosedGuard closedGuard,
            ScheduledExecutorService scheduler) {
        this.s3 = s3;
        this.calls = new SdkCalls(closedGuard, attemptTimeout(s3));
        this.gets = new GetRouter(new SdkGet(s3, blocking, sse, checksums, calls), direct, blockingReads, calls);
        this.sse = sse;
        this.checksums = checksums;
        this.copies = new ServerSideCopy(s3, sse, checksums, multipartCopy, maxSingleCopyBytes, closedGuard);
        this.closedGuard = closedGuard;
        this.retriedCreates = new RetriedCreates(
                s3,
                calls,
                this::abortMultipartUpload,
                scheduler,
                attemptTimeout(s3).multipliedBy(2));
    }

    @Override
    public ObjectMetadata head(S3Location location) throws IOException {
        HeadObjectRequest.Builder request =
                HeadObjectRequest.builder().bucket(location.bucket()).key(location.key());
        sse.decorate(request);
        HeadObjectResponse response = sendAndFinish("HeadObject", location, () -> s3.headObject(request.build()));
        return new ObjectMetadata(
                location.key(),
                response.contentLength(),
                response.eTag(),
                response.lastModified() == null ? 0 : response.lastModified().toEpochMilli());
    }

    /**
     * {@inheritDoc}
     *
     * <p>Sent as {@link GetRouter} decides: without the SDK's pipeline where a {@link DirectRangedGet} takes it,
     * else through it ({@link SdkGet}).
     */
    @Override
    public CompletableFuture<GetAnswer> get(GetRequest request) {
        return gets.get(request);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Keys come URL-encoded ({@code encoding-type=url}, decoded by the SDK), so keys that XML 1.0 cannot
     * carry (control characters, U+FFFE) are listed too; a server that ignores the parameter sends them as
     * they are. What the server answers is checked, not trusted:
     *
     * <ul>
     *   <li>Objects and common prefixes outside {@code prefix} are dropped with one warning per listing
     *       (SeaweedFS answered {@code prefix=chk-1/} with keys of {@code chk-10/}); callers that delete or
     *       rename what they list never touch another directory's objects.
     *   <li>A page marked truncated without a continuation token (Huawei OBS, some Ceph builds) gets a
     *       token of our own that continues the listing with {@code start-after} its last key or prefix;
     *       entries at or before that point are dropped. A truncated page that brings nothing new fails
     *       with an {@link S3RequestException} naming the server's fault, so a listing never ends silently
     *       early.
     * </ul>
     */
    @Override
    public ListPage list(String bucket, String prefix, String delimiter, String continuationToken, int maxKeys)
            throws IOException {
        String startAfter = StartAfterToken.startAfter(continuationToken);
        ListObjectsV2Request request = ListObjectsV2Request.builder()
                .bucket(bucket)
                .prefix(prefix)
                .delimiter(delimiter)
                .continuationToken(startAfter == null ? continuationToken : null)
                .startAfter(startAfter)
                .maxKeys(maxKeys)
                .encodingType(EncodingType.URL)
                .build();
        String where = "s3://" + bucket + "/" + prefix;
        ListObjectsV2Response response = sendAndFinish("ListObjectsV2", where, () -> s3.listObjectsV2(request));
        String required = prefix == null ? "" : prefix;
        List<String> foreign = new ArrayList<>();
        String last = startAfter;
        List<ObjectMetadata> objects = new ArrayList<>(response.contents().size());
        for (S3Object object : response.contents()) {
            String key = object.key();
            if (key == null || !key.startsWith(required)) {
                foreign.add(key);
            } else if (startAfter == null || key.compareTo(startAfter) > 0) {
                objects.add(new ObjectMetadata(
                        key,
                        object.size(),
                        object.eTag(),
                        object.lastModified() == null
                                ? 0
                                : object.lastModified().toEpochMilli()));
                last = StartAfterToken.later(last, key);
            }
        }
        List<String> prefixes = new ArrayList<>(response.commonPrefixes().size());
        for (CommonPrefix common : response.commonPrefixes()) {
            String commonPrefix = common.prefix();
            if (commonPrefix == null || !commonPrefix.startsWith(required)) {
                foreign.add(commonPrefix);
            } else if (startAfter == null || commonPrefix.compareTo(startAfter) > 0) {
                prefixes.add(commonPrefix);
                last = StartAfterToken.later(last, commonPrefix);
            }
        }
        if (!foreign.isEmpty()) {
            LOG.warn(
                    "The S3 server answered ListObjectsV2 of {} with {} entries outside that prefix, e.g. {}; they are"
                            + " ignored (listings, deletes and renames act only on keys under the prefix asked for)",
                    where,
                    foreign.size(),
                    foreign.get(0));
        }
        if (!Boolean.TRUE.equals(response.isTruncated())) {
            return new ListPage(objects, prefixes, null);
        }
        if (response.nextContinuationToken() != null
                && !response.nextContinuationToken().isEmpty()) {
            return new ListPage(objects, prefixes, response.nextContinuationToken());
        }
        if (last == null || last.equals(startAfter)) {
            throw new S3RequestException(
                    "ListObjectsV2",
                    where,
                    200,
                    null,
                    "The server marked the listing page truncated but sent no continuation token, and a request"
                            + " with start-after " + (startAfter == null ? "(none)" : startAfter)
                            + " brought no key past it: the server does not page listings as S3 does, so the"
                            + " listing cannot be completed",
                    null);
        }
        if (startAfter == null) {
            LOG.warn(
                    "The S3 server marked a ListObjectsV2 page of {} truncated without a continuation token;"
                            + " the listing continues with start-after the last key",
                    where);
        }
        return new ListPage(objects, prefixes, StartAfterToken.of(last));
    }

    /**
     * Continuation tokens of our own for listings the server truncated without one: the key to send as
     * {@code start-after}, behind a NUL character that XML (so no server's token) can hold.
     */
    static final class StartAfterToken {
        private static final String MARK = "\u0000start-after\u0000";

        private StartAfterToken() {}

        static String of(String key) {
            return MARK + key;
        }

        /** The key to start after, or {@code null} for a server's own token or none. */
        static String startAfter(String token) {
            return token != null && token.startsWith(MARK) ? token.substring(MARK.length()) : null;
        }

        static String later(String a, String b) {
            return a == null || b.compareTo(a) > 0 ? b : a;
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Any number of keys is accepted: they are sent as DeleteObjects requests of at most
     * {@value #MAX_KEYS_PER_DELETE} keys, a few in parallel (a key that XML 1.0 cannot carry, which no
     * DeleteObjects body can hold, as a DeleteObject of its own), each with {@code Content-MD5} (as servers
     * that predate S3's flexible checksums require) besides the SDK's checksum. Keys the answer reports
     * with a retryable code (InternalError, SlowDown, ServiceUnavailable, ...) are sent again with
     * exponential backoff (from 100 ms, at most 5 s, {@value #DELETE_KEY_ATTEMPTS} attempts in all); the
     * keys returned are those reported with a final code (AccessDenied) or still failing then.
     */
    @Override
    public List<String> deleteBatch(String bucket, List<String> keys) throws IOException {
        List<String> carried = new ArrayList<>(keys.size());
        List<String> single = new ArrayList<>();
        for (String key : keys) {
            (XmlText.canCarry(key) ? carried : single).add(key);
        }
        List<List<String>> batches = new ArrayList<>();
        for (int from = 0; from < carried.size(); from += MAX_KEYS_PER_DELETE) {
            batches.add(carried.subList(from, Math.min(from + MAX_KEYS_PER_DELETE, carried.size())));
        }
        for (String key : single) {
            batches.add(List.of(key));
        }
        List<List<String>> failedPerBatch = SlidingWindow.run(
                batches,
                DELETE_REQUESTS_IN_FLIGHT,
                batch -> XmlText.canCarry(batch.get(0))
                        ? deleteObjects(bucket, batch)
                        : deleteSingle(bucket, batch.get(0)));
        List<String> failed = new ArrayList<>();
        failedPerBatch.forEach(failed::addAll);
        return failed;
    }

    /**
     * One DeleteObject of a key a DeleteObjects body cannot carry; completes with nothing for a deleted (or
     * missing) key, and fails as DeleteObject fails otherwise.
     */
    private CompletableFuture<List<String>> deleteSingle(String bucket, String key) {
        String location = "s3://" + bucket + "/" + key;
        DeleteObjectRequest request =
                DeleteObjectRequest.builder().bucket(bucket).key(key).build();
        return send("DeleteObject", location, () -> s3.deleteObject(request), response -> List.<String>of())
                .exceptionally(failure -> {
                    if (Futures.unwrap(failure) instanceof FileNotFoundException) {
                        return List.of();
                    }
                    throw failure instanceof CompletionException
                            ? (CompletionException) failure
                            : new CompletionException(failure);
                });
    }

    private CompletableFuture<List<String>> deleteObjects(String bucket, List<String> keys) {
        return deleteObjects(bucket, keys, 1);
    }

    /**
     * One DeleteObjects request, then again for the keys its answer reported with a retryable code
     * ({@link #RETRYABLE_KEY_ERRORS}), after a backoff, up to {@value #DELETE_KEY_ATTEMPTS} attempts.
     * Completes with the keys not deleted, each with its code and message.
     */
    private CompletableFuture<List<String>> deleteObjects(String bucket, List<String> keys, int attempt) {
        List<ObjectIdentifier> objects = new ArrayList<>(keys.size());
        for (String key : keys) {
            objects.add(ObjectIdentifier.builder().key(key).build());
        }
        DeleteObjectsRequest request = DeleteObjectsRequest.builder()
                .bucket(bucket)
                .delete(Delete.builder().objects(objects).quiet(true).build())
                .overrideConfiguration(override -> override.addPlugin(CONTENT_MD5))
                .build();
        String where = "s3://" + bucket + "/" + keys.get(0) + " and " + (keys.size() - 1) + " more keys";
        return send("DeleteObjects", where, () -> s3.deleteObjects(request), response -> response)
                .thenCompose(response -> {
                    List<String> retry = new ArrayList<>();
                    List<String> failed = new ArrayList<>();
                    for (S3Error error : response.errors()) {
                        if (attempt < DELETE_KEY_ATTEMPTS && RETRYABLE_KEY_ERRORS.contains(error.code())) {
                            retry.add(error.key());
                        } else {
                            failed.add(error.key() + " (" + error.code() + ": " + error.message()
                                    + (attempt > 1 ? ", after " + attempt + " attempts" : "") + ")");
                        }
                    }
                    if (retry.isEmpty()) {
                        return CompletableFuture.completedFuture(failed);
                    }
                    long backoffMillis =
                            Math.min(DELETE_KEY_MAX_BACKOFF_MS, DELETE_KEY_BASE_BACKOFF_MS << (attempt - 1));
                    long jittered =
                            backoffMillis / 2 + ThreadLocalRandom.current().nextLong(backoffMillis / 2 + 1);
                    LOG.debug(
                            "DeleteObjects of {} reported {} keys with retryable errors; sent again in {} ms",
                            where,
                            retry.size(),
                            jittered);
                    return CompletableFuture.supplyAsync(
                                    () -> retry, CompletableFuture.delayedExecutor(jittered, TimeUnit.MILLISECONDS))
                            .thenCompose(again -> deleteObjects(bucket, again, attempt + 1))
                            .thenApply(stillFailed -> {
                                List<String> all = new ArrayList<>(failed);
                                all.addAll(stillFailed);
                                return all;
                            });
                });
    }

    @Override
    public void delete(S3Location location) throws IOException {
        DeleteObjectRequest request = DeleteObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .build();
        try {
            sendAndFinish("DeleteObject", location, () -> s3.deleteObject(request));
        } catch (FileNotFoundException alreadyGone) {
            // S3 answers 204 for a missing key; some compatible servers answer 404. Both mean "gone".
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>See {@link ServerSideCopy}: the source's metadata is copied with it.
     */
    @Override
    public CompletableFuture<Void> copy(S3Location source, S3Location target, long sourceLength) {
        return copies.copy(source, target, sourceLength);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The body is sent without copying; retries resend it from the caller's buffer, which must
     * therefore stay unchanged until the future completes. A server that does not implement
     * {@code If-None-Match} fails the future with an {@link S3RequestException} (status 501 or 400)
     * whose operation names the header.
     */
    @Override
    public CompletableFuture<String> put(S3Location location, ByteBuffer body, WriteCondition condition) {
        String operation = operation("PutObject", condition);
        return checksums
                .upload(
                        body,
                        bodyChecksums -> {
                            PutObjectRequest.Builder request = PutObjectRequest.builder()
                                    .bucket(location.bucket())
                                    .key(location.key())
                                    .contentLength((long) body.remaining());
                            if (condition == WriteCondition.IF_NONE_MATCH) {
                                request.ifNoneMatch(IF_NONE_MATCH_ANY);
                            }
                            sse.decorate(request);
                            checksums.decorate(request, bodyChecksums);
                            AsyncRequestBody content = AsyncRequestBody.fromRemainingByteBufferUnsafe(body.duplicate());
                            return send(operation, location, () -> s3.putObject(request.build(), content));
                        },
                        PutObjectResponse::checksumCRC32C,
                        operation,
                        location)
                .thenApply(PutObjectResponse::eTag);
    }

    @Override
    public boolean checksFlexibleChecksums() {
        return checksums.mode() == FlexibleChecksums.Mode.CRC32C;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A create the SDK had to send more than once may have made an upload per attempt; the others are aborted
     * in the background once this one's id is known ({@link RetriedCreates}).
     *
     * <p>A key XML 1.0 cannot carry ({@link XmlText}) is refused before any request: S3 names the key in the XML
     * answers of CreateMultipartUpload and CompleteMultipartUpload, so such an upload could never be completed, and
     * every attempt of the create, its answer unreadable and so retried, would leave an upload at the server.
     */
    @Override
    public CompletableFuture<String> createMultipartUpload(S3Location location) {
        int notCarried = XmlText.firstNotCarried(location.key());
        if (notCarried >= 0) {
            return CompletableFuture.failedFuture(new IOException("Cannot upload "
                    + XmlText.printable(location.toString()) + " in parts: its key holds "
                    + String.format(Locale.ROOT, "U+%04X", (int) location.key().charAt(notCarried))
                    + " at character " + notCarried + ", which XML 1.0 cannot carry, and S3 names the key in the"
                    + " XML answers of CreateMultipartUpload and CompleteMultipartUpload. An object at such a key"
                    + " can be written only as one PutObject, up to the part size (" + S3Options.PART_SIZE.key()
                    + "); nothing was sent. Use a key without control characters, U+FFFE or U+FFFF"));
        }
        CreateAttempts.Count attempts = new CreateAttempts.Count();
        CompletableFuture<String> created = checksums.declaring(
                FlexibleChecksums.Declared.ALGORITHM,
                declareAlgorithm -> {
                    CreateMultipartUploadRequest.Builder request = CreateMultipartUploadRequest.builder()
                            .bucket(location.bucket())
                            .key(location.key())
                            .overrideConfiguration(
                                    override -> override.putExecutionAttribute(CreateAttempts.COUNT, attempts));
                    sse.decorate(request);
                    checksums.decorate(request, declareAlgorithm);
                    return send(
                            "CreateMultipartUpload",
                            location,
                            () -> s3.createMultipartUpload(request.build()),
                            CreateMultipartUploadResponse::uploadId);
                },
                "CreateMultipartUpload",
                location);
        created.thenAccept(uploadId -> retriedCreates.abortDuplicates(location, uploadId, attempts));
        return created;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The body is sent without copying, as for {@link #put}. The returned part carries the CRC32C
     * the server confirmed, if it echoed one (see {@link FlexibleChecksums}).
     */
    @Override
    public CompletableFuture<CompletedPart> uploadPart(
            S3Location location, String uploadId, int partNumber, ByteBuffer body) {
        return uploadPart(location, uploadId, partNumber, body, UploadChecksum.AS_CONFIGURED);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A fixed checksum is sent as it is, whether or not this client's checksum mode would send it now; the
     * server's answer teaches the mode nothing.
     */
    @Override
    public CompletableFuture<CompletedPart> uploadPart(
            S3Location location, String uploadId, int partNumber, ByteBuffer body, UploadChecksum checksum) {
        long size = body.remaining();
        return checksums
                .upload(
                        body,
                        checksum,
                        bodyChecksums -> {
                            UploadPartRequest.Builder request = UploadPartRequest.builder()
                                    .bucket(location.bucket())
                                    .key(location.key())
                                    .uploadId(uploadId)
                                    .partNumber(partNumber)
                                    .contentLength(size);
                            sse.decorate(request);
                            checksums.decorate(request, bodyChecksums);
                            AsyncRequestBody content = AsyncRequestBody.fromRemainingByteBufferUnsafe(body.duplicate());
                            return send("UploadPart", location, () -> s3.uploadPart(request.build(), content));
                        },
                        UploadPartResponse::checksumCRC32C,
                        "UploadPart",
                        location)
                .thenApply(response -> new CompletedPart(partNumber, response.eTag(), size, response.checksumCRC32C()));
    }

    @Override
    public CompletableFuture<String> completeMultipartUpload(
            S3Location location, String uploadId, List<CompletedPart> parts, WriteCondition condition) {
        List<software.amazon.awssdk.services.s3.model.CompletedPart> completed = new ArrayList<>(parts.size());
        for (CompletedPart part : parts) {
            completed.add(software.amazon.awssdk.services.s3.model.CompletedPart.builder()
                    .partNumber(part.partNumber())
                    .eTag(part.eTag())
                    .checksumCRC32C(part.checksumCrc32c())
                    .build());
        }
        CompleteMultipartUploadRequest.Builder request = CompleteMultipartUploadRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .uploadId(uploadId)
                .multipartUpload(
                        CompletedMultipartUpload.builder().parts(completed).build());
        if (condition == WriteCondition.IF_NONE_MATCH) {
            request.ifNoneMatch(IF_NONE_MATCH_ANY)
                    .overrideConfiguration(override -> override.addPlugin(S3RetryStrategy.CONFLICT_IS_FINAL));
        }
        sse.decorate(request);
        return send(
                operation("CompleteMultipartUpload", condition),
                location,
                () -> s3.completeMultipartUpload(request.build()),
                CompleteMultipartUploadResponse::eTag);
    }

    @Override
    public CompletableFuture<Void> abortMultipartUpload(S3Location location, String uploadId) {
        AbortMultipartUploadRequest request = AbortMultipartUploadRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .uploadId(uploadId)
                .build();
        CompletableFuture<Void> aborted = calls.sendDespiteInterrupt(
                "AbortMultipartUpload", location, () -> s3.abortMultipartUpload(request), response -> null);
        CompletableFuture<Void> result = new CompletableFuture<>();
        aborted.whenComplete((done, failure) -> {
            Throwable cause = failure == null ? null : Futures.unwrap(failure);
            // An upload that is already gone (aborted, completed, expired) needs no abort.
            if (cause == null || cause instanceof FileNotFoundException) {
                result.complete(null);
            } else {
                result.completeExceptionally(cause);
            }
        });
        return result;
    }

    @Override
    public List<PendingUpload> listMultipartUploads(String bucket, String prefix) throws IOException {
        String where = "s3://" + bucket + "/" + prefix;
        List<PendingUpload> uploads = new ArrayList<>();
        String keyMarker = null;
        String uploadIdMarker = null;
        while (true) {
            ListMultipartUploadsRequest request = ListMultipartUploadsRequest.builder()
                    .bucket(bucket)
                    .prefix(prefix)
                    .keyMarker(keyMarker)
                    .uploadIdMarker(uploadIdMarker)
                    .encodingType(EncodingType.URL)
                    .build();
            ListMultipartUploadsResponse page =
                    sendAndFinish("ListMultipartUploads", where, () -> s3.listMultipartUploads(request));
            for (MultipartUpload upload : page.uploads()) {
                uploads.add(new PendingUpload(
                        upload.key(),
                        upload.uploadId(),
                        upload.initiated() == null ? 0 : upload.initiated().toEpochMilli()));
            }
            if (!Boolean.TRUE.equals(page.isTruncated())) {
                return uploads;
            }
            if (page.nextKeyMarker() == null && page.nextUploadIdMarker() == null) {
                throw new S3RequestException(
                        "ListMultipartUploads",
                        where,
                        200,
                        null,
                        "The server marked the page truncated but sent no next key or upload id marker:"
                                + " the listing of uploads cannot be continued",
                        null);
            }
            keyMarker = page.nextKeyMarker();
            uploadIdMarker = page.nextUploadIdMarker();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>What the server answers is checked, not trusted: a page that is full (as many parts as its {@code
     * MaxParts}) but marked complete, without a next part number marker, may be a server that does not page
     * ListParts as S3 does; the listing then asks once more, after the page's last part. Parts that come then
     * are listed too (with one warning); a server that answers that request with the parts before the marker
     * fails the listing with an {@link S3RequestException} saying that the server's listing is at fault.
     */
    @Override
    public List<CompletedPart> listParts(S3Location location, String uploadId) throws IOException {
        String where = location + " (upload id " + uploadId + ")";
        List<CompletedPart> parts = new ArrayList<>();
        Integer partNumberMarker = null;
        boolean markedComplete = false;
        while (true) {
            ListPartsRequest.Builder request = ListPartsRequest.builder()
                    .bucket(location.bucket())
                    .key(location.key())
                    .uploadId(uploadId)
                    .partNumberMarker(partNumberMarker);
            sse.decorate(request);
            ListPartsResponse page = sendAndFinish("ListParts", where, () -> s3.listParts(request.build()));
            int after = partNumberMarker == null ? 0 : partNumberMarker;
            for (Part part : page.parts()) {
                if (part.partNumber() == null || part.partNumber() <= after) {
                    throw new S3RequestException(
                            "ListParts",
                            where,
                            200,
                            null,
                            (markedComplete
                                            ? "The server marked its listing of parts complete after part " + after
                                                    + " (a full page, IsTruncated false, no NextPartNumberMarker) and"
                                            : "The server")
                                    + " answered part-number-marker " + after + " with part " + part.partNumber()
                                    + ": the server's listing of parts is at fault, not the upload",
                            null);
                }
                parts.add(new CompletedPart(part.partNumber(), part.eTag(), part.size(), part.checksumCRC32C()));
            }
            if (markedComplete && !page.parts().isEmpty()) {
                LOG.warn(
                        "The S3 server marked its listing of the parts of {} complete after part {} although more"
                                + " parts followed; the listing went on after that part",
                        where,
                        after);
            }
            if (!Boolean.TRUE.equals(page.isTruncated())) {
                Integer last = page.parts().isEmpty()
                        ? null
                        : page.parts().get(page.parts().size() - 1).partNumber();
                if (last == null || page.maxParts() == null || page.parts().size() < page.maxParts()) {
                    return parts;
                }
                // A full page marked complete: ask once more after its last part.
                markedComplete = true;
                partNumberMarker = last;
                continue;
            }
            markedComplete = false;
            if (page.nextPartNumberMarker() == null
                    || page.nextPartNumberMarker().equals(partNumberMarker)) {
                throw new S3RequestException(
                        "ListParts",
                        where,
                        200,
                        null,
                        "The server marked the page truncated but sent no new next part number marker: the"
                                + " server's listing of parts is at fault and cannot be continued",
                        null);
            }
            partNumberMarker = page.nextPartNumberMarker();
        }
    }

    /** What uploads carry now: found out from the server's first answers (see {@link FlexibleChecksums}). */
    FlexibleChecksums.Mode checksumMode() {
        return checksums.mode();
    }

    /** The operation's name in messages; a conditional write names its header. */
    private static String operation(String name, WriteCondition condition) {
        return condition == WriteCondition.IF_NONE_MATCH ? S3Errors.conditionalWrite(name) : name;
    }

    /** Sends a short request and waits for its answer despite an interrupt; see {@link SdkCalls#sendAndFinish}. */
    private <T> T sendAndFinish(String operation, Object location, Supplier<CompletableFuture<T>> call)
            throws IOException {
        return calls.sendAndFinish(operation, location, call);
    }

    /**
     * The attempt timeout {@code s3} was built with (the SDK's {@code apiCallAttemptTimeout}), or the
     * setting's default if the client does not tell: how long a short request may go on after its caller
     * was interrupted.
     */
    static Duration attemptTimeout(S3AsyncClient s3) {
        try {
            return s3.serviceClientConfiguration()
                    .overrideConfiguration()
                    .apiCallAttemptTimeout()
                    .orElse(ClientSettings.API_CALL_ATTEMPT_TIMEOUT.defaultValue());
        } catch (UnsupportedOperationException e) {
            return ClientSettings.API_CALL_ATTEMPT_TIMEOUT.defaultValue();
        }
    }

    private <T> CompletableFuture<T> send(String operation, Object location, Supplier<CompletableFuture<T>> call) {
        return calls.send(operation, location, call);
    }

    /** Sends a request and maps its response; see {@link SdkCalls#send(String, Object, Supplier, Function)}. */
    private <S, T> CompletableFuture<T> send(
            String operation, Object location, Supplier<CompletableFuture<S>> call, Function<? super S, T> response) {
        return calls.send(operation, location, call, response);
    }
}
