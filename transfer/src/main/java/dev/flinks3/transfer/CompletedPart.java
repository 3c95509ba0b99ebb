package dev.flinks3.transfer;

import java.util.Objects;

/**
 * One uploaded part of a multipart upload: its number (1..10,000), the ETag the server returned and
 * its size in bytes. Immutable; the list of these, in part-number order, completes an upload.
 */
public final class CompletedPart {

    /** S3's largest part number. */
    public static final int MAX_PART_NUMBER = 10_000;

    private final int partNumber;
    private final String eTag;
    private final long sizeBytes;

    public CompletedPart(int partNumber, String eTag, long sizeBytes) {
        if (partNumber < 1 || partNumber > MAX_PART_NUMBER) {
            throw new IllegalArgumentException("part number " + partNumber + " outside 1.." + MAX_PART_NUMBER);
        }
        this.partNumber = partNumber;
        this.eTag = Objects.requireNonNull(eTag, "eTag");
        this.sizeBytes = sizeBytes;
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

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CompletedPart)) {
            return false;
        }
        CompletedPart that = (CompletedPart) o;
        return partNumber == that.partNumber && sizeBytes == that.sizeBytes && eTag.equals(that.eTag);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partNumber, eTag, sizeBytes);
    }

    @Override
    public String toString() {
        return "Part{" + partNumber + ", eTag=" + eTag + ", " + sizeBytes + " bytes}";
    }
}
