package dev.flinks3.bench.checkpoint.job;

import java.util.Arrays;

/**
 * One record of the generator: its position in the sequence, the key it updates and the bytes it
 * writes into that key's value. A Flink POJO (public fields, no-argument constructor).
 */
public final class GeneratedRecord {

    /** Position in the record sequence, 0-based. */
    public long index;

    /** The key whose value this record updates. */
    public long key;

    /** Bytes XOR-ed into the key's value at {@link #offset}. */
    public byte[] payload;

    /** Byte offset into the value where {@link #payload} is applied. */
    public int offset;

    public GeneratedRecord() {}

    public GeneratedRecord(long index, long key, byte[] payload, int offset) {
        this.index = index;
        this.key = key;
        this.payload = payload;
        this.offset = offset;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GeneratedRecord)) {
            return false;
        }
        GeneratedRecord other = (GeneratedRecord) o;
        return index == other.index
                && key == other.key
                && offset == other.offset
                && Arrays.equals(payload, other.payload);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(index);
    }

    @Override
    public String toString() {
        return "GeneratedRecord{index=" + index + ", key=" + key + ", offset=" + offset + ", payload="
                + (payload == null ? 0 : payload.length) + " bytes}";
    }
}
