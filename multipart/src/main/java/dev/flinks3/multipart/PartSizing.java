package dev.flinks3.multipart;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.UploadSettings;

/**
 * The size of each part of an upload, by part number.
 *
 * <p>S3 allows at most 10,000 parts per upload, so a fixed part size P caps an object at 10,000 x P
 * (156 GiB for 16 MiB parts). To go further without large buffers for ordinary files, the part size
 * doubles every {@value #PARTS_PER_STEP} parts, up to a ceiling: the smallest of 1 GiB (parts live in
 * heap arrays), {@link UploadSettings#maxGrownPartBytes()} (what one request attempt can send) and what
 * the process budget can hold for one stream's parts in flight plus the one being filled. With the
 * defaults (8 MiB parts, 1 GiB budget, 8 parts in flight, 2 min attempts) parts grow 8, 16, 32, 64 and
 * 113 MiB and an object can reach about 456 GiB ({@link #maxObjectBytes()}). The sizes
 * depend only on the part number, so a resumed upload continues the same series. With uniform parts
 * ({@link UploadSettings#uniformParts()}, for stores that refuse parts of different sizes) the size
 * never grows, and an object can reach 10,000 parts of the configured size. Immutable.
 */
public final class PartSizing {

    /** Parts per size step; the part size doubles after each step. */
    public static final int PARTS_PER_STEP = UploadSettings.PARTS_PER_SIZE_STEP;
    /** Largest part this engine buffers: 1 GiB (a Java array holds less than 2 GiB); larger sizes are refused. */
    public static final long MAX_BUFFERED_PART_BYTES = UploadSettings.MAX_BUFFERED_PART_SIZE;

    private final int basePartBytes;
    private final int maxPartBytes;
    private final boolean uniform;

    /**
     * @param configuredPartBytes the part size from the settings, 1 byte..1 GiB
     * @param budgetBytes the process-wide buffer bound
     * @param partsInFlightPerStream the per-stream limit of parts being uploaded
     * @throws IllegalArgumentException if {@code configuredPartBytes} is outside 1 byte..{@value
     *     #MAX_BUFFERED_PART_BYTES} bytes (this engine cannot buffer a larger part)
     */
    public PartSizing(long configuredPartBytes, long budgetBytes, int partsInFlightPerStream) {
        this(configuredPartBytes, budgetBytes, partsInFlightPerStream, false);
    }

    /**
     * As {@link #PartSizing(long, long, int)}; with {@code uniform} every part has the configured size.
     *
     * @throws IllegalArgumentException if {@code configuredPartBytes} is outside 1 byte..{@value
     *     #MAX_BUFFERED_PART_BYTES} bytes
     */
    public PartSizing(long configuredPartBytes, long budgetBytes, int partsInFlightPerStream, boolean uniform) {
        this(configuredPartBytes, budgetBytes, partsInFlightPerStream, uniform, MAX_BUFFERED_PART_BYTES);
    }

    /**
     * As {@link #PartSizing(long, long, int, boolean)}; grown parts also stay within {@code
     * maxGrownPartBytes} ({@link UploadSettings#maxGrownPartBytes()}), but never below the configured size.
     *
     * @throws IllegalArgumentException if {@code configuredPartBytes} is outside 1 byte..{@value
     *     #MAX_BUFFERED_PART_BYTES} bytes
     */
    public PartSizing(
            long configuredPartBytes,
            long budgetBytes,
            int partsInFlightPerStream,
            boolean uniform,
            long maxGrownPartBytes) {
        if (configuredPartBytes < 1 || configuredPartBytes > MAX_BUFFERED_PART_BYTES) {
            throw new IllegalArgumentException("part size " + configuredPartBytes + " bytes is outside 1.."
                    + MAX_BUFFERED_PART_BYTES + " bytes: this engine holds each part in one heap array");
        }
        this.basePartBytes = (int) configuredPartBytes;
        long ceiling = Math.min(
                Math.min(MAX_BUFFERED_PART_BYTES, maxGrownPartBytes), budgetBytes / (partsInFlightPerStream + 1L));
        this.maxPartBytes = uniform ? basePartBytes : (int) Math.max(basePartBytes, ceiling);
        this.uniform = uniform;
    }

    /**
     * True if every part but the last must have the same size: then a persist sends no part shorter than
     * {@link #partBytes(int)}.
     */
    public boolean uniform() {
        return uniform;
    }

    /** Size in bytes of part {@code partNumber} (1..10,000) when filled completely. */
    public int partBytes(int partNumber) {
        if (partNumber < 1 || partNumber > CompletedPart.MAX_PART_NUMBER) {
            throw new IllegalArgumentException(
                    "part number " + partNumber + " outside 1.." + CompletedPart.MAX_PART_NUMBER);
        }
        int doublings = Math.min(30, (partNumber - 1) / PARTS_PER_STEP);
        return (int) Math.min(maxPartBytes, (long) basePartBytes << doublings);
    }

    /** The base part size in bytes (parts 1..{@value #PARTS_PER_STEP}). */
    public int basePartBytes() {
        return basePartBytes;
    }

    /**
     * The largest part this sizing produces, in bytes: the base size with uniform parts, else the
     * ceiling the size grows to. One attempt to upload a part must be able to send this many bytes.
     */
    public int largestPartBytes() {
        return maxPartBytes;
    }

    /** The largest object an upload can hold when all parts are full: the sum over 10,000 parts, in bytes. */
    public long maxObjectBytes() {
        long total = 0;
        for (int n = 1; n <= CompletedPart.MAX_PART_NUMBER; n++) {
            total += partBytes(n);
        }
        return total;
    }
}
