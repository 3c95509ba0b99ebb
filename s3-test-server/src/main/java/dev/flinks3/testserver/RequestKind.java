package dev.flinks3.testserver;

import java.util.Locale;
import java.util.Set;

/**
 * The S3 API operation an HTTP request addresses, classified the way the S3 API reference routes
 * path-style requests: by method, by whether the path names a bucket or an object, by sub-resource
 * query parameters ({@code uploads}, {@code uploadId}, {@code partNumber}, {@code delete},
 * {@code list-type}) and by the {@code x-amz-copy-source} header.
 */
public enum RequestKind {
    LIST_BUCKETS("ListBuckets"),
    CREATE_BUCKET("CreateBucket"),
    DELETE_BUCKET("DeleteBucket"),
    HEAD_BUCKET("HeadBucket"),
    LIST_OBJECTS("ListObjects"),
    LIST_OBJECTS_V2("ListObjectsV2"),
    LIST_MULTIPART_UPLOADS("ListMultipartUploads"),
    DELETE_OBJECTS("DeleteObjects"),
    PUT_OBJECT("PutObject"),
    COPY_OBJECT("CopyObject"),
    GET_OBJECT("GetObject"),
    HEAD_OBJECT("HeadObject"),
    DELETE_OBJECT("DeleteObject"),
    CREATE_MULTIPART_UPLOAD("CreateMultipartUpload"),
    UPLOAD_PART("UploadPart"),
    UPLOAD_PART_COPY("UploadPartCopy"),
    COMPLETE_MULTIPART_UPLOAD("CompleteMultipartUpload"),
    ABORT_MULTIPART_UPLOAD("AbortMultipartUpload"),
    LIST_PARTS("ListParts"),
    /** Bucket configuration calls (ACL, versioning, location, ...) and anything unrecognised. */
    OTHER("Other");

    private final String operationName;

    RequestKind(String operationName) {
        this.operationName = operationName;
    }

    /** The operation's name in the S3 API reference, e.g. {@code UploadPart}. */
    public String operationName() {
        return operationName;
    }

    /**
     * The kind with an operation name of the S3 API reference.
     *
     * @throws IllegalArgumentException if no kind has that name
     */
    public static RequestKind forOperationName(String operationName) {
        for (RequestKind kind : values()) {
            if (kind.operationName.equals(operationName)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("not an S3 operation name: '" + operationName + "'");
    }

    /**
     * Classifies a path-style request as a proxy in front of the server sees it.
     *
     * @param method HTTP method, any case
     * @param rawUrl the request's path and query, still percent-encoded ({@code /bucket/key?uploadId=..})
     * @param copySource whether the request carries {@code x-amz-copy-source}
     */
    public static RequestKind of(String method, String rawUrl, boolean copySource) {
        int question = rawUrl.indexOf('?');
        RequestTarget target = question < 0
                ? RequestTarget.parse(rawUrl, null)
                : RequestTarget.parse(rawUrl.substring(0, question), rawUrl.substring(question + 1));
        return classify(
                method.toUpperCase(Locale.ROOT), target.bucket(), target.key(), target.queryNames(), copySource);
    }

    /**
     * Classifies one request.
     *
     * @param method HTTP method in upper case
     * @param bucket bucket named by the path, empty for the service root
     * @param key object key named by the path, empty when the path names only a bucket
     * @param queryNames names of the query parameters (sub-resources), without values
     * @param copySource whether the request carries {@code x-amz-copy-source}
     */
    static RequestKind classify(String method, String bucket, String key, Set<String> queryNames, boolean copySource) {
        if (bucket.isEmpty()) {
            return "GET".equals(method) ? LIST_BUCKETS : OTHER;
        }
        return key.isEmpty() ? classifyBucket(method, queryNames) : classifyObject(method, queryNames, copySource);
    }

    private static RequestKind classifyBucket(String method, Set<String> queryNames) {
        boolean plain = queryNames.isEmpty();
        switch (method) {
            case "GET":
                if (queryNames.contains("uploads")) {
                    return LIST_MULTIPART_UPLOADS;
                }
                if (queryNames.contains("list-type")) {
                    return LIST_OBJECTS_V2;
                }
                return plain
                                || queryNames.contains("prefix")
                                || queryNames.contains("delimiter")
                                || queryNames.contains("marker")
                                || queryNames.contains("max-keys")
                        ? LIST_OBJECTS
                        : OTHER;
            case "PUT":
                return plain ? CREATE_BUCKET : OTHER;
            case "DELETE":
                return plain ? DELETE_BUCKET : OTHER;
            case "HEAD":
                return HEAD_BUCKET;
            case "POST":
                return queryNames.contains("delete") ? DELETE_OBJECTS : OTHER;
            default:
                return OTHER;
        }
    }

    private static RequestKind classifyObject(String method, Set<String> queryNames, boolean copySource) {
        boolean inUpload = queryNames.contains("uploadId");
        switch (method) {
            case "GET":
                if (inUpload) {
                    return LIST_PARTS;
                }
                return queryNames.contains("acl") || queryNames.contains("attributes") ? OTHER : GET_OBJECT;
            case "HEAD":
                return HEAD_OBJECT;
            case "PUT":
                if (inUpload && queryNames.contains("partNumber")) {
                    return copySource ? UPLOAD_PART_COPY : UPLOAD_PART;
                }
                if (queryNames.contains("acl")) {
                    return OTHER;
                }
                return copySource ? COPY_OBJECT : PUT_OBJECT;
            case "POST":
                if (queryNames.contains("uploads")) {
                    return CREATE_MULTIPART_UPLOAD;
                }
                return inUpload ? COMPLETE_MULTIPART_UPLOAD : OTHER;
            case "DELETE":
                return inUpload ? ABORT_MULTIPART_UPLOAD : DELETE_OBJECT;
            default:
                return OTHER;
        }
    }

    @Override
    public String toString() {
        return operationName;
    }
}
