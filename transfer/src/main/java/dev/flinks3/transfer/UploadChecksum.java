package dev.flinks3.transfer;

/**
 * The checksum every part of one multipart upload carries. S3 fixes it when the upload is created: an
 * upload created with {@code x-amz-checksum-algorithm: CRC32C} refuses a part without {@code
 * x-amz-checksum-crc32c}, and one created without an algorithm refuses a part that carries one, both with
 * 400 InvalidRequest "Checksum Type mismatch occurred" (S3 API reference, CreateMultipartUpload and
 * UploadPart: "x-amz-checksum-algorithm"). A stream that continues an upload another process created (a
 * recovered checkpoint, another plugin's) must therefore send what the upload was created with, not what
 * the client's settings say today.
 */
public enum UploadChecksum {

    /** What this client sends now, for uploads it creates itself (see {@code s3.checksum-validation.enabled}). */
    AS_CONFIGURED,

    /** Created without a checksum algorithm: parts carry {@code Content-MD5} and no {@code x-amz-checksum-*}. */
    NONE,

    /** Created with CRC32C: every part carries {@code x-amz-checksum-crc32c}. */
    CRC32C
}
