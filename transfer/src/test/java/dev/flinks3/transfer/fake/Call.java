package dev.flinks3.transfer.fake;

import dev.flinks3.transfer.S3Location;

/**
 * One call made to {@link InMemoryObjectClient}, as {@link Fault} predicates see it.
 *
 * @param operation what was called
 * @param callNumber 1-based number of this call among the calls of the same operation
 * @param location the object the call is for; for bucket-level calls the bucket root
 * @param uploadId the multipart upload id, {@code null} if the operation has none
 * @param partNumber the part number of an UploadPart, 0 otherwise
 * @param rangeEnd the exclusive end (bytes) of a GET's range, the same for every GET that resumes a broken
 *     body of one range; -1 for other operations
 */
public record Call(
        Operation operation, int callNumber, S3Location location, String uploadId, int partNumber, long rangeEnd) {}
