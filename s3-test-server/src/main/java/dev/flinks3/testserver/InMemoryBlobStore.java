package dev.flinks3.testserver;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.gaul.s3proxy.S3ErrorCode;
import org.gaul.s3proxy.S3ProxyException;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.MD5;
import org.gaul.s3proxy.blobstore.S3Exceptions;
import org.gaul.s3proxy.blobstore.SdkRequests;
import org.gaul.s3proxy.blobstore.SdkResponses;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateBucketRequest;
import software.amazon.awssdk.services.s3.model.CreateBucketResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.StorageClass;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * An S3Proxy {@link BlobStore} that keeps objects in this JVM's heap, for benchmarks
 * ({@link ServerMode#BENCHMARK}): a PutObject body is read once into one array, an UploadPart body into
 * one array per part, and CompleteMultipartUpload makes the object the list of its parts' arrays
 * without copying a byte, the way S3 completes an upload without charging the client for the bytes
 * again. A CopyObject shares the source's arrays. Object keys are flat (S3's model: no directories),
 * listed in UTF-16 order with prefix, delimiter, {@code max-keys}, start-after and continuation token.
 *
 * <p>Buckets, ACLs of buckets and everything this store does not answer itself go to S3Proxy's
 * transient store it wraps. ETags are S3's: the MD5 of a PutObject's or a part's bytes, and the MD5
 * of the parts' MD5s with {@code -N} for a multipart object; a {@code Content-MD5} that does not match
 * answers 400 BadDigest, parts other than the last below 5 MiB answer EntityTooSmall, as S3 does
 * (<a href="https://docs.aws.amazon.com/AmazonS3/latest/userguide/qfacts.html">multipart limits</a>).
 * No versioning, no server-side encryption. Thread-safe.
 */
final class InMemoryBlobStore extends ForwardingBlobStore {

    private static final long MIN_PART_BYTES = 5L << 20;

    /** Largest array a stored body is kept in; a longer body is kept in several, never copied again. */
    static final int CHUNK_BYTES = 64 << 20;

    private static final int MAX_KEYS = 1000;

    private final Map<String, NavigableMap<String, StoredObject>> buckets = new ConcurrentHashMap<>();
    private final Map<String, Upload> uploads = new ConcurrentHashMap<>();

    /** @param bucketStore the store that keeps the buckets themselves (S3Proxy's transient store) */
    InMemoryBlobStore(BlobStore bucketStore) {
        super(bucketStore);
    }

    /** The bytes of all objects held, for a report. */
    long storedBytes() {
        return buckets.values().stream()
                .flatMap(objects -> objects.values().stream())
                .mapToLong(StoredObject::length)
                .sum();
    }

    /**
     * Drops every object whose key starts with {@code prefix} and every upload in progress to such a key,
     * without a request (a benchmark releasing a finished run's objects).
     *
     * @return the bytes dropped
     */
    long drop(String bucket, String prefix) {
        NavigableMap<String, StoredObject> objects = objects(bucket);
        long dropped = 0;
        for (Map.Entry<String, StoredObject> entry :
                objects.tailMap(prefix, true).entrySet()) {
            if (!entry.getKey().startsWith(prefix)) {
                break;
            }
            if (objects.remove(entry.getKey(), entry.getValue())) {
                dropped += entry.getValue().length();
            }
        }
        uploads.values()
                .removeIf(upload -> upload.request().bucket().equals(bucket)
                        && upload.request().key().startsWith(prefix));
        return dropped;
    }

    @Override
    public CreateBucketResponse createContainer(CreateBucketRequest request) {
        CreateBucketResponse response = super.createContainer(request);
        buckets.putIfAbsent(request.bucket(), new ConcurrentSkipListMap<>());
        return response;
    }

    @Override
    public void deleteBucket(String bucket) {
        NavigableMap<String, StoredObject> objects = buckets.get(bucket);
        if (objects != null && !objects.isEmpty()) {
            throw new S3ProxyException(S3ErrorCode.BUCKET_NOT_EMPTY);
        }
        super.deleteBucket(bucket);
        buckets.remove(bucket);
    }

    @Override
    public boolean supportsVersioning() {
        return false;
    }

    @Override
    public boolean supportsServerSideEncryption() {
        return false;
    }

    @Override
    public boolean supportsBucketEncryption() {
        return false;
    }

    @Override
    public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
        Body bytes = read(body, request.contentLength());
        byte[] md5 = bytes.md5();
        checkContentMd5(request.contentMD5(), md5);
        String eTag = quoted(HexFormat.of().formatHex(md5));
        store(
                request.bucket(),
                request.key(),
                request.ifMatch(),
                request.ifNoneMatch(),
                new StoredObject(
                        bytes.chunks(),
                        bytes.length(),
                        eTag,
                        Instant.now(),
                        request.contentType(),
                        copyOf(request.metadata())));
        return SdkResponses.putResponse(eTag);
    }

    @Override
    public CopyObjectResponse copyBlob(CopyObjectRequest request) {
        StoredObject source = object(request.sourceBucket(), request.sourceKey());
        boolean replace = request.metadataDirective() == MetadataDirective.REPLACE;
        StoredObject copy = new StoredObject(
                source.chunks(),
                source.length(),
                source.eTag(),
                Instant.now(),
                replace ? request.contentType() : source.contentType(),
                replace ? copyOf(request.metadata()) : source.metadata());
        objects(request.destinationBucket()).put(request.destinationKey(), copy);
        return SdkResponses.copyResponse(copy.eTag(), copy.lastModified());
    }

    @Override
    public HeadObjectResponse blobMetadata(HeadObjectRequest request) {
        StoredObject object = object(request.bucket(), request.key());
        return HeadObjectResponse.builder()
                .contentLength(object.length())
                .eTag(object.eTag())
                .lastModified(object.lastModified())
                .contentType(object.contentType())
                .metadata(object.metadata())
                .storageClass(StorageClass.STANDARD)
                .build();
    }

    @Override
    public boolean blobExists(String bucket, String key) {
        return objects(bucket).containsKey(key);
    }

    @Override
    public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
        StoredObject object = object(request.bucket(), request.key());
        if (request.ifMatch() != null && !sameETag(request.ifMatch(), object.eTag())) {
            throw new S3ProxyException(S3ErrorCode.PRECONDITION_FAILED);
        }
        long first = 0;
        long last = object.length() - 1;
        String contentRange = null;
        if (request.range() != null) {
            SdkRequests.ByteRange range = SdkRequests.parseRange(request.range());
            if (range.first() == null) {
                first = Math.max(0, object.length() - range.last());
            } else {
                first = range.first();
                if (range.last() != null) {
                    last = Math.min(last, range.last());
                }
            }
            if (first >= object.length() || first > last) {
                throw new S3ProxyException(S3ErrorCode.INVALID_RANGE);
            }
            contentRange = "bytes " + first + "-" + last + "/" + object.length();
        }
        GetObjectResponse response = GetObjectResponse.builder()
                .contentLength(last - first + 1)
                .contentRange(contentRange)
                .eTag(object.eTag())
                .lastModified(object.lastModified())
                .contentType(object.contentType())
                .metadata(object.metadata())
                .storageClass(StorageClass.STANDARD)
                .build();
        return SdkResponses.getResponse(response, object.stream(first, last + 1));
    }

    @Override
    public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
        objects(request.bucket()).remove(request.key());
        return DeleteObjectResponse.builder().build();
    }

    @Override
    public ListObjectsV2Response list(ListObjectsV2Request request) {
        NavigableMap<String, StoredObject> objects = objects(request.bucket());
        String prefix = request.prefix() == null ? "" : request.prefix();
        String delimiter = request.delimiter() == null || request.delimiter().isEmpty() ? null : request.delimiter();
        int maxKeys = request.maxKeys() == null ? MAX_KEYS : Math.min(MAX_KEYS, request.maxKeys());
        String after = later(request.startAfter(), request.continuationToken());
        NavigableMap<String, StoredObject> candidates = after == null
                ? objects.tailMap(prefix, true)
                : objects.tailMap(later(after, prefix), !after.equals(later(after, prefix)));
        List<S3Object> contents = new ArrayList<>();
        List<CommonPrefix> prefixes = new ArrayList<>();
        String lastPrefix = after != null && delimiter != null && after.endsWith(delimiter) ? after : null;
        String lastReturned = null;
        boolean truncated = false;
        for (Map.Entry<String, StoredObject> entry : candidates.entrySet()) {
            String key = entry.getKey();
            if (!key.startsWith(prefix)) {
                break;
            }
            if (lastPrefix != null && key.startsWith(lastPrefix)) {
                continue;
            }
            if (contents.size() + prefixes.size() >= maxKeys) {
                truncated = true;
                break;
            }
            int at = delimiter == null ? -1 : key.indexOf(delimiter, prefix.length());
            if (at >= 0) {
                lastPrefix = key.substring(0, at + delimiter.length());
                prefixes.add(SdkResponses.commonPrefix(lastPrefix));
                lastReturned = lastPrefix;
            } else {
                StoredObject object = entry.getValue();
                contents.add(SdkResponses.objectEntry(
                        key, object.eTag(), object.lastModified(), object.length(), StorageClass.STANDARD));
                lastReturned = key;
            }
        }
        return SdkResponses.objectsPage(contents, prefixes, truncated ? lastReturned : null);
    }

    @Override
    public ObjectCannedACL getBlobAccess(String bucket, String key) {
        object(bucket, key);
        return ObjectCannedACL.PRIVATE;
    }

    @Override
    public ObjectCannedACL getBlobAccess(String bucket, String key, String versionId) {
        return getBlobAccess(bucket, key);
    }

    @Override
    public void setBlobAccess(String bucket, String key, ObjectCannedACL access) {
        object(bucket, key);
    }

    @Override
    public void setBlobAccess(String bucket, String key, ObjectCannedACL access, String versionId) {
        setBlobAccess(bucket, key, access);
    }

    @Override
    public MultipartUpload initiateMultipartUpload(CreateMultipartUploadRequest request) {
        objects(request.bucket());
        String id = UUID.randomUUID().toString();
        uploads.put(id, new Upload(request, Instant.now(), new ConcurrentSkipListMap<>()));
        return new MultipartUpload(id, request);
    }

    @Override
    public void abortMultipartUpload(MultipartUpload mpu) {
        if (uploads.remove(mpu.id()) == null) {
            throw new S3ProxyException(S3ErrorCode.NO_SUCH_UPLOAD);
        }
    }

    @Override
    public UploadPartResponse uploadMultipartPart(MultipartUpload mpu, UploadPartRequest request, InputStream body) {
        Upload upload = upload(mpu);
        Body bytes = read(body, request.contentLength());
        byte[] md5 = bytes.md5();
        checkContentMd5(request.contentMD5(), md5);
        String eTag = quoted(HexFormat.of().formatHex(md5));
        upload.parts().put(request.partNumber(), new StoredPart(bytes, eTag, Instant.now()));
        return SdkResponses.uploadedPart(eTag);
    }

    @Override
    public CompleteMultipartUploadResponse completeMultipartUpload(
            MultipartUpload mpu, CompleteMultipartUploadRequest request) {
        Upload upload = upload(mpu);
        List<CompletedPart> requested = request.multipartUpload() == null
                ? List.of()
                : request.multipartUpload().parts();
        if (requested.isEmpty()) {
            throw new S3ProxyException(S3ErrorCode.MALFORMED_X_M_L, "no parts given");
        }
        List<byte[]> chunks = new ArrayList<>(requested.size());
        MessageDigest digests = MD5.newDigest();
        long length = 0;
        int previous = 0;
        for (CompletedPart completed : requested) {
            if (completed.partNumber() <= previous) {
                throw new S3ProxyException(S3ErrorCode.INVALID_PART_ORDER);
            }
            previous = completed.partNumber();
        }
        for (int i = 0; i < requested.size(); i++) {
            CompletedPart completed = requested.get(i);
            int number = completed.partNumber();
            StoredPart part = upload.parts().get(number);
            if (part == null || (completed.eTag() != null && !sameETag(completed.eTag(), part.eTag()))) {
                throw new S3ProxyException(S3ErrorCode.INVALID_PART, "part " + number);
            }
            if (i < requested.size() - 1 && part.bytes().length() < MIN_PART_BYTES) {
                throw new S3ProxyException(S3ErrorCode.ENTITY_TOO_SMALL, "part " + number);
            }
            chunks.addAll(part.bytes().chunks());
            digests.update(part.bytes().md5());
            length += part.bytes().length();
        }
        String eTag = quoted(HexFormat.of().formatHex(digests.digest()) + "-" + requested.size());
        CreateMultipartUploadRequest created = upload.request();
        store(
                created.bucket(),
                created.key(),
                request.ifMatch(),
                request.ifNoneMatch(),
                new StoredObject(
                        List.copyOf(chunks),
                        length,
                        eTag,
                        Instant.now(),
                        created.contentType(),
                        copyOf(created.metadata())));
        uploads.remove(mpu.id());
        return SdkResponses.completeResponse(eTag);
    }

    @Override
    public List<Part> listMultipartUpload(MultipartUpload mpu) {
        List<Part> parts = new ArrayList<>();
        upload(mpu)
                .parts()
                .forEach((number, part) ->
                        parts.add(SdkResponses.part(number, part.bytes().length(), part.eTag(), part.lastModified())));
        return parts;
    }

    @Override
    public List<software.amazon.awssdk.services.s3.model.MultipartUpload> listMultipartUploads(String bucket) {
        objects(bucket);
        List<software.amazon.awssdk.services.s3.model.MultipartUpload> listed = new ArrayList<>();
        uploads.forEach((id, upload) -> {
            if (upload.request().bucket().equals(bucket)) {
                listed.add(SdkResponses.upload(upload.request().key(), id, upload.initiated()));
            }
        });
        return listed;
    }

    /**
     * Stores an object under S3's conditional-write rules: {@code If-None-Match: *} only if no object has the
     * key, {@code If-Match} only if the object there has that ETag; 412 PreconditionFailed otherwise.
     */
    private void store(String bucket, String key, String ifMatch, String ifNoneMatch, StoredObject object) {
        NavigableMap<String, StoredObject> objects = objects(bucket);
        if ("*".equals(ifNoneMatch)) {
            if (objects.putIfAbsent(key, object) != null) {
                throw new S3ProxyException(S3ErrorCode.PRECONDITION_FAILED);
            }
        } else if (ifMatch != null) {
            StoredObject current = objects.get(key);
            if (current == null || !sameETag(ifMatch, current.eTag()) || !objects.replace(key, current, object)) {
                throw new S3ProxyException(S3ErrorCode.PRECONDITION_FAILED);
            }
        } else {
            objects.put(key, object);
        }
    }

    private NavigableMap<String, StoredObject> objects(String bucket) {
        NavigableMap<String, StoredObject> objects = buckets.get(bucket);
        if (objects == null) {
            throw S3Exceptions.noSuchBucket(bucket, "no such bucket");
        }
        return objects;
    }

    private StoredObject object(String bucket, String key) {
        StoredObject object = objects(bucket).get(key);
        if (object == null) {
            // S3Proxy's handler tells a missing object by this type (conditional writes, blobMetadataIfPresent).
            throw S3Exceptions.noSuchKey(bucket, key, "no such object");
        }
        return object;
    }

    private Upload upload(MultipartUpload mpu) {
        Upload upload = uploads.get(mpu.id());
        if (upload == null) {
            throw new S3ProxyException(S3ErrorCode.NO_SUCH_UPLOAD, mpu.id());
        }
        return upload;
    }

    /**
     * A request body in arrays of at most {@value #CHUNK_BYTES} bytes (S3 takes up to 5 GiB in one PutObject or
     * part, more than one Java array holds), with its MD5.
     *
     * @throws S3ProxyException {@code IncompleteBody} if the body ends before its {@code Content-Length}
     */
    private static Body read(InputStream body, Long contentLength) {
        try (body) {
            MessageDigest md5 = MD5.newDigest();
            List<byte[]> chunks = new ArrayList<>();
            long length = 0;
            while (contentLength == null || length < contentLength) {
                int size = contentLength == null ? CHUNK_BYTES : (int) Math.min(CHUNK_BYTES, contentLength - length);
                byte[] chunk = new byte[size];
                int read = body.readNBytes(chunk, 0, size);
                if (read < size) {
                    if (contentLength != null) {
                        throw new S3ProxyException(
                                S3ErrorCode.INCOMPLETE_BODY, (length + read) + " of " + contentLength + " bytes");
                    }
                    chunk = Arrays.copyOf(chunk, read);
                }
                if (chunk.length > 0) {
                    chunks.add(chunk);
                    md5.update(chunk);
                    length += chunk.length;
                }
                if (read < size) {
                    break;
                }
            }
            return new Body(List.copyOf(chunks), length, md5.digest());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read a request body", e);
        }
    }

    private static void checkContentMd5(String contentMd5, byte[] md5) {
        if (contentMd5 != null && !MessageDigest.isEqual(Base64.getDecoder().decode(contentMd5), md5)) {
            throw new S3ProxyException(S3ErrorCode.BAD_DIGEST);
        }
    }

    private static Map<String, String> copyOf(Map<String, String> metadata) {
        return metadata == null ? Map.of() : Map.copyOf(metadata);
    }

    private static String quoted(String eTag) {
        return "\"" + eTag + "\"";
    }

    private static boolean sameETag(String a, String b) {
        return "*".equals(a) || unquoted(a).equals(unquoted(b));
    }

    private static String unquoted(String eTag) {
        return eTag.length() >= 2 && eTag.startsWith("\"") && eTag.endsWith("\"")
                ? eTag.substring(1, eTag.length() - 1)
                : eTag;
    }

    /** The later of two keys in the store's order, either may be null. */
    private static String later(String a, String b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** An object: its bytes as the arrays it was written in (one for a PUT, one per part otherwise). */
    private record StoredObject(
            List<byte[]> chunks,
            long length,
            String eTag,
            Instant lastModified,
            String contentType,
            Map<String, String> metadata) {

        /** The bytes from {@code from} (inclusive) to {@code to} (exclusive), without copying them. */
        InputStream stream(long from, long to) {
            List<InputStream> pieces = new ArrayList<>();
            long start = 0;
            for (byte[] chunk : chunks) {
                long end = start + chunk.length;
                if (end > from && start < to) {
                    int offset = (int) Math.max(0, from - start);
                    int until = (int) Math.min(chunk.length, to - start);
                    pieces.add(new ByteArrayInputStream(chunk, offset, until - offset));
                }
                start = end;
            }
            return new SequenceInputStream(Collections.enumeration(pieces));
        }
    }

    /** A request body as stored: its arrays in order, its length in bytes and its MD5. */
    private record Body(List<byte[]> chunks, long length, byte[] md5) {}

    private record StoredPart(Body bytes, String eTag, Instant lastModified) {}

    private record Upload(
            CreateMultipartUploadRequest request, Instant initiated, NavigableMap<Integer, StoredPart> parts) {}
}
