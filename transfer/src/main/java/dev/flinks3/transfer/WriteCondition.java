package dev.flinks3.transfer;

/**
 * Precondition of a PutObject or CompleteMultipartUpload.
 *
 * <p>{@link #IF_NONE_MATCH} sends {@code If-None-Match: *} (S3 "conditional writes"): the write fails
 * with 412 Precondition Failed, surfaced as {@link java.nio.file.FileAlreadyExistsException}, if an
 * object already exists at the key.
 */
public enum WriteCondition {
    /** Overwrite whatever is at the key. */
    NONE,
    /** Fail if an object exists at the key. */
    IF_NONE_MATCH
}
