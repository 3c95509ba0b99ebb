package dev.flinks3.transfer.fake;

/** The S3 operations of {@link dev.flinks3.transfer.ObjectClient}, as {@link InMemoryObjectClient} counts them. */
public enum Operation {
    HEAD,
    GET,
    LIST,
    DELETE_BATCH,
    DELETE,
    COPY,
    PUT,
    CREATE_MULTIPART_UPLOAD,
    UPLOAD_PART,
    COMPLETE_MULTIPART_UPLOAD,
    ABORT_MULTIPART_UPLOAD,
    LIST_MULTIPART_UPLOADS,
    LIST_PARTS
}
