package dev.flinks3.bench.checkpoint.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.runtime.state.KeyGroupRange;

/**
 * The running key count and digest of every key group one subtask owns. Updated on each record,
 * written to operator state at each checkpoint, and compared with the state read back after a
 * restore. Not thread-safe: owned by the task thread.
 */
public final class KeyGroupDigests {

    private final KeyGroupRange range;
    private final long[] keys;
    private final long[] digests;

    /** Zero keys and digests for each key group of {@code range}. */
    public KeyGroupDigests(KeyGroupRange range) {
        this.range = range;
        this.keys = new long[range.getNumberOfKeyGroups()];
        this.digests = new long[range.getNumberOfKeyGroups()];
    }

    /**
     * The figures recorded at a checkpoint for the key groups of {@code range}.
     *
     * @param recorded entries of all subtasks at that checkpoint (union state)
     * @throws IllegalStateException if a key group of the range has no entry: the checkpoint lacks them
     */
    public static KeyGroupDigests restored(KeyGroupRange range, Iterable<KeyGroupDigest> recorded) {
        List<KeyGroupDigest> all = new ArrayList<>();
        recorded.forEach(all::add);
        Map<Integer, KeyGroupDigest> byGroup = all.stream()
                .filter(d -> range.contains(d.keyGroup))
                .collect(Collectors.toMap(d -> d.keyGroup, Function.identity(), (a, b) -> {
                    throw new IllegalStateException("two digests recorded for key group " + a.keyGroup);
                }));
        KeyGroupDigests digests = new KeyGroupDigests(range);
        for (int keyGroup : range) {
            KeyGroupDigest entry = byGroup.get(keyGroup);
            if (entry == null) {
                throw new IllegalStateException("the restored checkpoint recorded no digest for key group " + keyGroup);
            }
            digests.keys[digests.slot(keyGroup)] = entry.keys;
            digests.digests[digests.slot(keyGroup)] = entry.digest;
        }
        return digests;
    }

    /**
     * Records that a key of {@code keyGroup} changed.
     *
     * @param created whether the key held no value before
     * @param oldDigest the key's {@link ValueDigest} before (ignored when created)
     * @param newDigest the key's {@link ValueDigest} now
     */
    public void update(int keyGroup, boolean created, long oldDigest, long newDigest) {
        int slot = slot(keyGroup);
        if (created) {
            keys[slot]++;
            digests[slot] += newDigest;
        } else {
            digests[slot] += newDigest - oldDigest;
        }
    }

    /** Adds one key holding a value with the given digest (when recomputing from state). */
    public void add(int keyGroup, long digest) {
        update(keyGroup, true, 0, digest);
    }

    /** One entry per key group of the range, for operator state. */
    public List<KeyGroupDigest> entries() {
        List<KeyGroupDigest> entries = new ArrayList<>(keys.length);
        for (int keyGroup : range) {
            int slot = slot(keyGroup);
            entries.add(new KeyGroupDigest(keyGroup, keys[slot], digests[slot]));
        }
        return entries;
    }

    /** The key groups covered. */
    public KeyGroupRange range() {
        return range;
    }

    /** Total keys over the range. */
    public long totalKeys() {
        long total = 0;
        for (long k : keys) {
            total += k;
        }
        return total;
    }

    /** Sum (mod 2^64) of the digests over the range. */
    public long totalDigest() {
        long total = 0;
        for (long d : digests) {
            total += d;
        }
        return total;
    }

    /**
     * The key groups whose figures differ from {@code actual}, described for an error message;
     * empty when all agree.
     */
    public List<String> differences(KeyGroupDigests actual) {
        List<String> differences = new ArrayList<>();
        for (int keyGroup : range) {
            int slot = slot(keyGroup);
            int other = actual.slot(keyGroup);
            if (keys[slot] != actual.keys[other] || digests[slot] != actual.digests[other]) {
                differences.add(String.format(
                        "key group %d: expected %d keys with digest %016x, found %d keys with digest %016x",
                        keyGroup, keys[slot], digests[slot], actual.keys[other], actual.digests[other]));
            }
        }
        return differences;
    }

    private int slot(int keyGroup) {
        if (!range.contains(keyGroup)) {
            throw new IllegalArgumentException("key group " + keyGroup + " is not in " + range);
        }
        return keyGroup - range.getStartKeyGroup();
    }
}
