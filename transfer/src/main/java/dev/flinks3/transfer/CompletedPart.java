package dev.flinks3.transfer;

import java.util.Objects;

/**
 * One uploaded part of a multipart upload: its number (1..10,000), the ETag the server returned, its
 * size in bytes and, when uploads carry flexible checksums, the part's base64 CRC32C. Immutable; the
 * list of these, in part-number order, completes an upload.
 */
public final class CompletedPart {

    /** S3's largest part number. */
    public static final int MAX_PART_NUMBER = 10_000;

    private final int partNumber;
    private final String eTag;
    private final long sizeBytes;
    private final String checksumCrc32c;

    /** A part without a checksum. */
    public CompletedPart(int partNumber, String eTag, long sizeBytes) {
        this(partNumber, eTag, sizeBytes, null);
    }

    /**
     * @param checksumCrc32c the base64 CRC32C the server confirmed for the part, or {@code null} if
     *     the upload does not use checksums; an upload created with checksums needs it at completion
     */
    public CompletedPart(int partNumber, String eTag, long sizeBytes, String checksumCrc32c) {
        if (partNumber < 1 || partNumber > MAX_PART_NUMBER) {
            throw new IllegalArgumentException("part number " + partNumber + " outside 1.." + MAX_PART_NUMBER);
        }
        this.partNumber = partNumber;
        this.eTag = Objects.requireNonNull(eTag, "eTag");
        this.sizeBytes = sizeBytes;
        this.checksumCrc32c = checksumCrc32c;
    }

    public int partNumber() {
        return partNumber;
    }

    public String eTag() {
        return eTag;
    }

    /** Size of the part in bytes. */
    public long sizeBytes() {
        return sizeBytes;
    }

    /** The part's base64 CRC32C, or {@code null} if the upload does not use checksums. */
    public String checksumCrc32c() {
        return checksumCrc32c;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CompletedPart)) {
            return false;
        }
        CompletedPart that = (CompletedPart) o;
        return partNumber == that.partNumber
                && sizeBytes == that.sizeBytes
                && eTag.equals(that.eTag)
                && Objects.equals(checksumCrc32c, that.checksumCrc32c);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partNumber, eTag, sizeBytes, checksumCrc32c);
    }

    @Override
    public String toString() {
        return "Part{" + partNumber + ", eTag=" + eTag + ", " + sizeBytes + " bytes"
                + (checksumCrc32c == null ? "" : ", crc32c=" + checksumCrc32c) + "}";
    }
}
