package dev.flinks3.bench.checkpoint.job;

import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * A 64-bit fingerprint of one key and its value. Fingerprints of many keys are added (mod 2^64) into
 * a digest that can be updated per record ({@code digest += new - old}) and recomputed from the state
 * after a restore. The value's two CRCs (both hardware-accelerated in the JDK) are mixed with the
 * key non-linearly, so values swapped between keys change the sum as well as changed bytes do.
 */
public final class ValueDigest {

    private ValueDigest() {}

    /** The fingerprint of {@code key} holding {@code value}. */
    public static long of(long key, byte[] value) {
        CRC32C crc32c = new CRC32C();
        crc32c.update(value);
        CRC32 crc32 = new CRC32();
        crc32.update(value);
        long valueHash = (crc32c.getValue() << 32) | crc32.getValue();
        return RecordGenerator.mix(RecordGenerator.mix(key) ^ valueHash);
    }
}
