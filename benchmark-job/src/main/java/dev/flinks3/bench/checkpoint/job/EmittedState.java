package dev.flinks3.bench.checkpoint.job;

import java.util.Arrays;

/**
 * The keyed state the job must hold after processing the source's records {@code 0 .. n-1}, computed from
 * the {@link RecordGenerator} alone, without the job: for every key its initial value with the payloads of
 * all its records XORed in (XOR commutes, so the order in which subtasks processed them does not matter),
 * as a key count and a digest in {@link ValueDigest}'s terms. A restore is checked against it: what the
 * source emitted, not only what the job recorded of itself.
 *
 * <p>Works through the key space in chunks of at most {@value #CHUNK_BYTES} bytes of values, each chunk one
 * pass over the record indices ({@link RecordGenerator#keyOf} only, payloads for the chunk's records), so
 * memory stays bounded at any state size.
 *
 * @param keys keys that hold a value
 * @param digest sum (mod 2^64) of the {@link ValueDigest} of every key and value
 */
public record EmittedState(long keys, long digest) {

    private static final long CHUNK_BYTES = 64L << 20;

    /**
     * The state after each of the given record counts, in one computation.
     *
     * @param counts numbers of records, ascending, each at least 0
     * @return one state per count, in the same order
     */
    public static EmittedState[] after(RecordGenerator generator, long... counts) {
        for (int i = 1; i < counts.length; i++) {
            if (counts[i] < counts[i - 1]) {
                throw new IllegalArgumentException("counts must ascend, were " + Arrays.toString(counts));
            }
        }
        long[] keys = new long[counts.length];
        long[] digests = new long[counts.length];
        int keyCount = generator.keyCount();
        int chunkKeys = (int) Math.max(1, Math.min(keyCount, CHUNK_BYTES / generator.valueSizeBytes()));
        long total = counts.length == 0 ? 0 : counts[counts.length - 1];
        for (int first = 0; first < keyCount; first += chunkKeys) {
            int last = Math.min(keyCount, first + chunkKeys);
            byte[][] values = new byte[last - first][];
            long index = 0;
            for (int c = 0; c < counts.length; c++) {
                for (; index < counts[c]; index++) {
                    long key = generator.keyOf(index);
                    if (key >= first && key < last) {
                        int slot = (int) (key - first);
                        if (values[slot] == null) {
                            values[slot] = generator.initialValue(key);
                        }
                        RecordGenerator.apply(generator.record(index), values[slot]);
                    }
                }
                for (int slot = 0; slot < values.length; slot++) {
                    if (values[slot] != null) {
                        keys[c]++;
                        digests[c] += ValueDigest.of(first + slot, values[slot]);
                    }
                }
            }
            if (index != total) {
                throw new IllegalStateException("replayed " + index + " of " + total + " records");
            }
        }
        EmittedState[] states = new EmittedState[counts.length];
        for (int c = 0; c < counts.length; c++) {
            states[c] = new EmittedState(keys[c], digests[c]);
        }
        return states;
    }
}
