package dev.flinks3.bench.fsbench.workloads;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/**
 * The bytes of every file a workload writes, reproducible from the file's seed and a position, so
 * what is read back can be compared byte for byte without keeping a copy.
 *
 * <p>A file's content is a window into one pool of random bytes, starting at an offset derived from
 * its seed and wrapping at the pool's end. The pool is a little longer than 8 MiB and not a power of
 * two, so a reader that returns bytes from a wrong part- or buffer-aligned offset gets bytes that
 * differ. The pool is filled once; handing out slices of it keeps data generation out of the
 * client CPU being measured. Thread-safe (read-only after construction).
 */
public final class PatternData {

    /** Pool length in bytes: 8 MiB plus an odd prime, so no power-of-two offset maps onto itself. */
    static final int POOL_BYTES = 8 * 1024 * 1024 + 4099;

    private static final long SEED_STRIDE = 1_000_003L;

    /** The pool, followed by a copy of its first {@link WorkloadSizes#MAX_CALL_BYTES} bytes. */
    private final byte[] pool;

    /** Creates the pool from a fixed random seed: the same in every JVM. */
    public PatternData() {
        pool = new byte[POOL_BYTES + WorkloadSizes.MAX_CALL_BYTES];
        byte[] head = new byte[POOL_BYTES];
        new SplittableRandom(0x5EED_F11E_5L).nextBytes(head);
        System.arraycopy(head, 0, pool, 0, POOL_BYTES);
        System.arraycopy(head, 0, pool, POOL_BYTES, WorkloadSizes.MAX_CALL_BYTES);
    }

    /**
     * The array holding a file's bytes from {@code position} on; read it from {@link #offset}.
     * At least {@link WorkloadSizes#MAX_CALL_BYTES} bytes are available there.
     */
    public byte[] array() {
        return pool;
    }

    /** Where in {@link #array()} the byte of file {@code seed} at {@code position} is. */
    public int offset(long seed, long position) {
        return (int) Math.floorMod(seed * SEED_STRIDE + position, (long) POOL_BYTES);
    }

    /**
     * Compares bytes read back against the file's bytes.
     *
     * @param seed the file's seed
     * @param position where in the file {@code bytes[from]} was read from
     * @param bytes the bytes read
     * @param from first byte to compare
     * @param length bytes to compare
     * @return -1 if equal, otherwise the file position of the first differing byte
     */
    public long mismatch(long seed, long position, byte[] bytes, int from, int length) {
        int done = 0;
        while (done < length) {
            int chunk = Math.min(length - done, WorkloadSizes.MAX_CALL_BYTES);
            int start = offset(seed, position + done);
            int differs = Arrays.mismatch(bytes, from + done, from + done + chunk, pool, start, start + chunk);
            if (differs >= 0) {
                return position + done + differs;
            }
            done += chunk;
        }
        return -1;
    }

    /** The CRC32C of a whole file of {@code length} bytes. */
    public long crc32c(long seed, long length) {
        CRC32C crc = new CRC32C();
        long position = 0;
        while (position < length) {
            int chunk = (int) Math.min(length - position, WorkloadSizes.MAX_CALL_BYTES);
            crc.update(pool, offset(seed, position), chunk);
            position += chunk;
        }
        return crc.getValue();
    }
}
