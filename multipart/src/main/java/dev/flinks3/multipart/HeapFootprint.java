package dev.flinks3.multipart;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;

/**
 * The heap a {@code byte[]} of a given length really takes, which is what the {@link UploadBudget} counts
 * for a part buffer: its length, the array header and, with the G1 collector, the rest of the last region
 * of a humongous array. G1 puts every array of at least half a region in regions of its own, rounded up to
 * whole regions: on a heap below 2 GiB (1 MiB regions) an 8 MiB part buffer takes 9 MiB, so a limit
 * counted in part bytes alone let 32 such buffers take 1.125 times the limit. Thread-safe, immutable.
 */
public final class HeapFootprint {

    /** Bytes of a {@code byte[]}'s header (mark word, class pointer, length), rounded to 8. */
    public static final int ARRAY_HEADER_BYTES = 16;

    private static final HeapFootprint THIS_JVM = new HeapFootprint(g1RegionBytes(), ARRAY_HEADER_BYTES);

    private final long regionBytes;
    private final int headerBytes;

    /**
     * @param regionBytes G1's region size in bytes, or 0 when the collector has no humongous regions
     * @param headerBytes bytes an array takes beyond its length (0 in tests that count lengths only)
     * @throws IllegalArgumentException if either is negative
     */
    HeapFootprint(long regionBytes, int headerBytes) {
        if (regionBytes < 0 || headerBytes < 0) {
            throw new IllegalArgumentException(
                    "region size " + regionBytes + " and header " + headerBytes + " bytes must not be negative");
        }
        this.regionBytes = regionBytes;
        this.headerBytes = headerBytes;
    }

    /** The footprint rule of this JVM's collector (the upload budget's, for tests that check its figures). */
    public static HeapFootprint ofThisJvm() {
        return THIS_JVM;
    }

    /**
     * @param length a {@code byte[]}'s length in bytes, at least 0
     * @return the heap in bytes an array of that length takes, at least {@code length}
     */
    public long of(long length) {
        long object = headerBytes == 0 ? length : (length + headerBytes + 7) & ~7L;
        if (regionBytes == 0 || object < regionBytes / 2) {
            return object;
        }
        return (object + regionBytes - 1) / regionBytes * regionBytes;
    }

    /** G1's region size, in bytes, or 0 if this JVM does not run G1 (or does not say). */
    private static long g1RegionBytes() {
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (hotSpot == null
                    || !Boolean.parseBoolean(hotSpot.getVMOption("UseG1GC").getValue())) {
                return 0;
            }
            VMOption region = hotSpot.getVMOption("G1HeapRegionSize");
            return Long.parseLong(region.getValue());
        } catch (RuntimeException | LinkageError e) {
            return 0;
        }
    }
}
