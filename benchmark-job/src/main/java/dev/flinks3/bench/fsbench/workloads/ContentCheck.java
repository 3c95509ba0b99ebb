package dev.flinks3.bench.fsbench.workloads;

import java.util.zip.CRC32C;

/**
 * Checks bytes read back from one file, in order, against {@link PatternData}: a byte comparison
 * and a CRC32C over everything read, compared at the end with the CRC32C of the expected content.
 * Not thread-safe: one per reader.
 */
final class ContentCheck {

    private final PatternData data;
    private final long seed;
    private final String name;
    private final long start;
    private final CRC32C crc = new CRC32C();
    private long position;
    private long firstMismatch = -1;

    /**
     * @param name the file, for messages
     * @param start the file position of the first byte that will be checked
     */
    ContentCheck(PatternData data, long seed, String name, long start) {
        this.data = data;
        this.seed = seed;
        this.name = name;
        this.start = start;
        this.position = start;
    }

    /** Takes the next {@code length} bytes read. */
    void update(byte[] bytes, int from, int length) {
        crc.update(bytes, from, length);
        if (firstMismatch < 0) {
            firstMismatch = data.mismatch(seed, position, bytes, from, length);
        }
        position += length;
    }

    /**
     * The outcome once all bytes were taken.
     *
     * @param expectedLength how many bytes should have been read
     * @return empty if the bytes and their count are right, otherwise what was wrong
     */
    String result(long expectedLength) {
        long read = position - start;
        if (read != expectedLength) {
            return name + ": read " + read + " bytes from position " + start + ", expected " + expectedLength;
        }
        if (firstMismatch >= 0) {
            return name + ": wrong byte at position " + firstMismatch;
        }
        long expectedCrc = expectedCrc(expectedLength);
        if (crc.getValue() != expectedCrc) {
            return name + ": CRC32C " + Long.toHexString(crc.getValue()) + ", expected "
                    + Long.toHexString(expectedCrc);
        }
        return "";
    }

    private long expectedCrc(long length) {
        if (start == 0) {
            return data.crc32c(seed, length);
        }
        CRC32C expected = new CRC32C();
        long done = 0;
        while (done < length) {
            int chunk = (int) Math.min(length - done, WorkloadSizes.MAX_CALL_BYTES);
            expected.update(data.array(), data.offset(seed, start + done), chunk);
            done += chunk;
        }
        return expected.getValue();
    }
}
