package dev.flinks3.bench.checkpoint.job;

/**
 * What one key group held at a checkpoint: its number of keys and the sum of their
 * {@link ValueDigest}s. A Flink POJO, stored in union operator state so that a restore at any
 * parallelism finds the figures for the key groups it receives.
 */
public final class KeyGroupDigest {

    /** The key group (0 .. max parallelism - 1). */
    public int keyGroup;

    /** Keys holding a value. */
    public long keys;

    /** Sum (mod 2^64) of the keys' value digests. */
    public long digest;

    public KeyGroupDigest() {}

    public KeyGroupDigest(int keyGroup, long keys, long digest) {
        this.keyGroup = keyGroup;
        this.keys = keys;
        this.digest = digest;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KeyGroupDigest)) {
            return false;
        }
        KeyGroupDigest other = (KeyGroupDigest) o;
        return keyGroup == other.keyGroup && keys == other.keys && digest == other.digest;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(digest) * 31 + keyGroup;
    }

    @Override
    public String toString() {
        return "key group " + keyGroup + ": " + keys + " keys, digest " + Long.toHexString(digest);
    }
}
