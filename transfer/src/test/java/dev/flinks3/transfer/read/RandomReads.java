package dev.flinks3.transfer.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A random mix of what Flink's readers do to one {@link S3SeekableInputStream}, every byte checked against the
 * object: sequential reads into arrays and heap or direct buffers of any size, single bytes, skips, seeks short
 * and long, forward and backward, and positional reads alone and in walks (as RocksDB and ForSt read SST blocks).
 */
final class RandomReads {

    private static final int KIB = 1024;

    private RandomReads() {}

    /**
     * The mix of {@link #sequentialAndPositionalMix} ({@code steps} of them) on this thread while two threads of
     * {@code readers} send {@code positionalSteps} positional reads each on the same stream; waits for all.
     *
     * @throws Exception the first failed check or read, of this thread or another
     */
    static void fromThreeThreads(
            S3SeekableInputStream in, byte[] source, long seed, int steps, int positionalSteps, ExecutorService readers)
            throws Exception {
        List<Future<?>> others = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            long threadSeed = seed * 31 + t;
            others.add(readers.submit(() -> {
                positionalReads(in, source, new Random(threadSeed), positionalSteps);
                return null;
            }));
        }
        sequentialAndPositionalMix(in, source, new Random(seed * 17), steps);
        for (Future<?> other : others) {
            other.get(120, TimeUnit.SECONDS);
        }
    }

    /** Sequential reads, seeks and skips on the stream, checked against {@code source}; some positional reads too. */
    private static void sequentialAndPositionalMix(S3SeekableInputStream in, byte[] source, Random random, int steps)
            throws IOException {
        for (int step = 0; step < steps; step++) {
            long position = in.getPos();
            String what = "step " + step + " at " + position;
            switch (random.nextInt(9)) {
                case 0:
                    in.seek(random.nextInt(source.length + 1));
                    break;
                case 1:
                    in.seek(Math.min(source.length, position + random.nextInt(8 * KIB)));
                    break;
                case 2:
                    in.seek(Math.max(0, position - random.nextInt(64 * KIB)));
                    break;
                case 3: {
                    long skipped = in.skip(random.nextInt(16 * KIB));
                    assertThat(in.getPos()).as(what).isEqualTo(position + skipped);
                    assertThat(in.getPos()).as(what).isLessThanOrEqualTo(source.length);
                    break;
                }
                case 4: {
                    int b = in.read();
                    assertThat(b).as(what).isEqualTo(position < source.length ? source[(int) position] & 0xff : -1);
                    break;
                }
                case 5:
                    checkPositional(in, source, random);
                    assertThat(in.getPos())
                            .as(what + ": a positional read leaves the position")
                            .isEqualTo(position);
                    break;
                default:
                    readSequentially(in, source, random, what);
            }
        }
    }

    private static void readSequentially(S3SeekableInputStream in, byte[] source, Random random, String what)
            throws IOException {
        long position = in.getPos();
        int len = random.nextBoolean() ? random.nextInt(17 * KIB) : random.nextInt(600 * KIB);
        int expected = (int) Math.min(len, source.length - position);
        byte[] got;
        int n;
        if (random.nextBoolean()) {
            got = new byte[len + 3];
            n = in.read(got, 3, len);
            got = n > 0 ? Arrays.copyOfRange(got, 3, 3 + n) : new byte[0];
        } else {
            ByteBuffer buffer = random.nextBoolean() ? ByteBuffer.allocateDirect(len) : ByteBuffer.allocate(len);
            n = in.read(buffer);
            buffer.flip();
            got = new byte[buffer.remaining()];
            buffer.get(got);
        }
        if (len == 0) {
            assertThat(n).as(what).isLessThanOrEqualTo(0);
            return;
        }
        if (expected == 0) {
            assertThat(n).as(what + ": at the end").isEqualTo(-1);
            return;
        }
        assertThat(n).as(what + ": read of " + len).isBetween(1, expected);
        assertThat(got).as(what + ": bytes of a read of " + len).isEqualTo(slice(source, position, n));
        assertThat(in.getPos()).as(what).isEqualTo(position + n);
    }

    /** Positional reads and walks, as another reader of the same stream sends them. */
    private static void positionalReads(S3SeekableInputStream in, byte[] source, Random random, int steps)
            throws IOException {
        for (int step = 0; step < steps; step++) {
            checkPositional(in, source, random);
        }
    }

    /** One positional read (or a short walk of them), heap or direct, checked against {@code source}. */
    private static void checkPositional(S3SeekableInputStream in, byte[] source, Random random) throws IOException {
        long position = random.nextInt(source.length + 100);
        int walk = random.nextInt(4) == 0 ? 2 + random.nextInt(30) : 1;
        for (int i = 0; i < walk; i++) {
            int len = random.nextBoolean() ? 4 * KIB + random.nextInt(12 * KIB) : 1 + random.nextInt(200 * KIB);
            int expected = (int) Math.max(0, Math.min(len, source.length - position));
            String what = "positional read of " + len + " at " + position + " of " + source.length;
            ByteBuffer buffer = random.nextBoolean() ? ByteBuffer.allocateDirect(len) : ByteBuffer.allocate(len);
            if (random.nextBoolean() && expected == len) {
                in.readFully(position, buffer);
            } else if (expected < len && random.nextBoolean()) {
                try {
                    in.readFully(position, buffer);
                    throw new AssertionError(what + ": readFully past the end did not fail");
                } catch (EOFException expectedEnd) {
                    return;
                }
            } else {
                int n = in.read(position, buffer);
                if (expected == 0) {
                    assertThat(n).as(what).isEqualTo(-1);
                    return;
                }
                assertThat(n).as(what).isBetween(1, expected);
            }
            buffer.flip();
            byte[] got = new byte[buffer.remaining()];
            buffer.get(got);
            assertThat(got).as(what).isEqualTo(slice(source, position, got.length));
            position += got.length + (random.nextInt(3) == 0 ? random.nextInt(5 * KIB) : 0);
        }
    }

    private static byte[] slice(byte[] source, long position, int n) {
        return Arrays.copyOfRange(source, (int) position, (int) position + n);
    }
}
