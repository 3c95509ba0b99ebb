package dev.flinks3.bench.checkpoint.job;

import java.io.Serializable;
import java.util.SplittableRandom;

/**
 * Turns a record index into a record and a key into its first value, deterministically: the same
 * parameters give the same records and the same initial values on every run and every machine.
 *
 * <p>Records {@code 0 .. keyCount-1} each introduce a new key, so state grows at the source's rate
 * until it reaches {@code keyCount} keys ({@code --targetStateGb}); later records update keys
 * spread pseudo-randomly over the key space. Each update XORs a payload into a record-dependent
 * range of the value: XOR commutes, so the final state does not depend on the order in which
 * parallel source subtasks' records reach a key. Immutable and thread-safe.
 */
public final class RecordGenerator implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Bytes each record carries and XORs into a value (at most the value size). */
    public static final int MAX_PAYLOAD_BYTES = 1024;

    private static final long KEY_SALT = 0x6A09E667F3BCC908L;
    private static final long OFFSET_SALT = 0xBB67AE8584CAA73BL;
    private static final long PAYLOAD_SALT = 0x3C6EF372FE94F82BL;
    private static final long VALUE_SALT = 0xA54FF53A5F1D36F1L;

    private final int keyCount;
    private final int valueSizeBytes;
    private final int payloadBytes;

    /**
     * @param keyCount number of distinct keys, positive
     * @param valueSizeBytes size of every value in bytes, positive
     */
    public RecordGenerator(int keyCount, int valueSizeBytes) {
        if (keyCount <= 0 || valueSizeBytes <= 0) {
            throw new IllegalArgumentException(
                    "keyCount and valueSizeBytes must be positive, were " + keyCount + " and " + valueSizeBytes);
        }
        this.keyCount = keyCount;
        this.valueSizeBytes = valueSizeBytes;
        this.payloadBytes = Math.min(MAX_PAYLOAD_BYTES, valueSizeBytes);
    }

    /** A generator for the job's parameters. */
    public static RecordGenerator of(JobParameters parameters) {
        return new RecordGenerator(parameters.keyCount(), parameters.valueSizeBytes());
    }

    /** The record at {@code index} (0-based). */
    public GeneratedRecord record(long index) {
        long key = keyOf(index);
        int offset = (int) Math.floorMod(mix(index ^ OFFSET_SALT), (long) valueSizeBytes - payloadBytes + 1);
        byte[] payload = new byte[payloadBytes];
        new SplittableRandom(mix(index ^ PAYLOAD_SALT)).nextBytes(payload);
        return new GeneratedRecord(index, key, payload, offset);
    }

    /** The key of the record at {@code index}, without making its payload: {@code record(index).key}. */
    public long keyOf(long index) {
        return index < keyCount ? index : Math.floorMod(mix(index ^ KEY_SALT), keyCount);
    }

    /** The value a key holds when it is first seen: {@code valueSizeBytes} pseudo-random bytes. */
    public byte[] initialValue(long key) {
        byte[] value = new byte[valueSizeBytes];
        new SplittableRandom(mix(key ^ VALUE_SALT)).nextBytes(value);
        return value;
    }

    /** XORs a record's payload into a value in place (a partial overwrite of the payload's range). */
    public static void apply(GeneratedRecord record, byte[] value) {
        byte[] payload = record.payload;
        if (record.offset < 0 || record.offset + payload.length > value.length) {
            throw new IllegalArgumentException("record " + record.index + " writes bytes " + record.offset + ".."
                    + (record.offset + payload.length) + " of a value of " + value.length + " bytes");
        }
        for (int i = 0; i < payload.length; i++) {
            value[record.offset + i] ^= payload[i];
        }
    }

    public int keyCount() {
        return keyCount;
    }

    public int valueSizeBytes() {
        return valueSizeBytes;
    }

    /** The finalizer of SplitMix64: a bijective 64-bit mix with good avalanche. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
