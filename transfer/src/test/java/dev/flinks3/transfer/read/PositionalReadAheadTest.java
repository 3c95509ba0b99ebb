package dev.flinks3.transfer.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Positional reads that walk through an object, as an iterator over an SST file reads its blocks, through
 * {@link S3SeekableInputStream} against the in-memory fake: the blocks {@link PositionalReadAhead} asks
 * for, and that random positional reads still send one GET of exactly their bytes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PositionalReadAheadTest {

    private static final int KIB = 1024;
    private static final int MIB = 1024 * KIB;
    /** A RocksDB block with its 5-byte trailer, as ForSt reads them. */
    private static final int BLOCK = 8 * KIB + 39;

    private static final S3Location LOCATION = S3Location.of("s3", "bucket", "db/000042.sst");

    private final InMemoryObjectClient client = new InMemoryObjectClient();
    private final ReadSettings settings = ReadSettings.builder()
            .readAheadBytes(8 * MIB)
            .readAheadParallelism(4)
            .build();
    private final ReadAheadBudget budget = new ReadAheadBudget(64L * MIB);

    @Test
    void aWalkThroughTheObjectIsServedFromGrowingBlocks() throws IOException {
        byte[] source = store(4 * MIB + 123);

        try (S3SeekableInputStream in = open(source.length, budget)) {
            byte[] read = walk(in, 0, source.length, BLOCK);
            assertThat(read).isEqualTo(source);
            assertThat(in.getPos())
                    .as("positional reads do not move the stream")
                    .isZero();
        }

        List<long[]> ranges = client.getRanges();
        // Two reads of one block each, then blocks of 64 KiB, 256 KiB and 1 MiB (the largest) to the end.
        assertThat(ranges.get(0)).containsExactly(0, BLOCK);
        assertThat(ranges.get(1)).containsExactly(BLOCK, 2L * BLOCK);
        assertThat(length(ranges.get(2))).isEqualTo(PositionalReadAhead.FIRST_BLOCK_BYTES);
        assertThat(length(ranges.get(3))).isEqualTo(PositionalReadAhead.FIRST_BLOCK_BYTES * 4L);
        assertThat(length(ranges.get(4))).isEqualTo(PositionalReadAhead.MAX_BLOCK_BYTES);
        for (int i = 1; i < ranges.size(); i++) {
            assertThat(ranges.get(i)[0])
                    .as("GET %d starts where the one before ended", i)
                    .isEqualTo(ranges.get(i - 1)[1]);
        }
        assertThat(ranges.get(ranges.size() - 1)[1]).isEqualTo(source.length);
        // 4 MiB in blocks of 8 KiB: 513 reads, 8 GETs.
        assertThat(client.calls(Operation.GET)).isEqualTo(8);
        assertThat(budget.heldBytes())
                .as("the last block was used up and given back")
                .isZero();
    }

    @Test
    void randomPositionalReadsSendOneGetOfExactlyTheirBytes() throws IOException {
        byte[] source = store(8 * MIB);

        Random random = new Random(3);
        try (S3SeekableInputStream in = open(source.length, budget)) {
            for (int i = 0; i < 200; i++) {
                int at = random.nextInt(source.length - 16 * KIB);
                byte[] b = new byte[16 * KIB];
                in.readFully(at, b, 0, b.length);
                assertThat(b).isEqualTo(Arrays.copyOfRange(source, at, at + b.length));
            }
        }

        assertThat(client.calls(Operation.GET)).isEqualTo(200);
        assertThat(client.getRanges())
                .allSatisfy(range -> assertThat(length(range)).isEqualTo(16 * KIB));
        assertThat(budget.peakHeldBytes()).isZero();
    }

    @Test
    void twoAdjacentReadsAreACoincidenceAndAThirdStartsTheBlocks() throws IOException {
        byte[] source = store(MIB);

        try (S3SeekableInputStream in = open(source.length, budget)) {
            readAt(in, source, 100_000, BLOCK);
            readAt(in, source, 100_000 + BLOCK, BLOCK);
            assertThat(client.getRanges())
                    .allSatisfy(range -> assertThat(length(range)).isEqualTo(BLOCK));
            readAt(in, source, 100_000 + 2 * BLOCK, BLOCK);
            assertThat(length(client.getRanges().get(2))).isEqualTo(PositionalReadAhead.FIRST_BLOCK_BYTES);
            assertThat(budget.heldBytes()).isEqualTo(PositionalReadAhead.FIRST_BLOCK_BYTES);

            // A read elsewhere ends the walk: the block goes back and the next walk starts small again.
            readAt(in, source, 700_000, BLOCK);
            assertThat(budget.heldBytes()).isZero();
            readAt(in, source, 700_000 + BLOCK, BLOCK);
            readAt(in, source, 700_000 + 2 * BLOCK, BLOCK);
            List<long[]> ranges = client.getRanges();
            assertThat(ranges).hasSize(6);
            assertThat(length(ranges.get(5))).isEqualTo(PositionalReadAhead.FIRST_BLOCK_BYTES);
        }
        assertThat(budget.heldBytes()).as("close gives the block back").isZero();
    }

    @Test
    void readsThatSkipALittleBetweenBlocksStillWalk() throws IOException {
        byte[] source = store(2 * MIB);

        try (S3SeekableInputStream in = open(source.length, budget)) {
            long at = 0;
            while (at + BLOCK <= source.length) {
                readAt(in, source, at, BLOCK);
                at += BLOCK + 100;
            }
        }
        // 2 MiB: two single reads, then 64 KiB + 256 KiB + 1 MiB + the rest.
        assertThat(client.calls(Operation.GET)).isEqualTo(6);
    }

    @Test
    void aReadLargerThanTheNextBlockGetsItsLengthInOneGet() throws IOException {
        byte[] source = store(4 * MIB);

        try (S3SeekableInputStream in = open(source.length, budget)) {
            readAt(in, source, 0, BLOCK);
            readAt(in, source, BLOCK, BLOCK);
            readAt(in, source, 2 * BLOCK, 3 * MIB);
        }
        assertThat(client.calls(Operation.GET)).isEqualTo(3);
        assertThat(length(client.getRanges().get(2))).isEqualTo(3 * MIB);
    }

    @Test
    void aReadThatCrossesTheBlockEndTakesTheRestFromTheNextBlock() throws IOException {
        byte[] source = store(MIB);

        try (S3SeekableInputStream in = open(-1, budget)) {
            readAt(in, source, 0, 1000);
            readAt(in, source, 1000, 1000);
            readAt(in, source, 2000, 1000); // block [2000, 2000 + 64 KiB)
            readAt(in, source, 3000, 70_000); // 63 KiB from the block, the rest from a block of 256 KiB
            readAt(in, source, 73_000, 5_000);
        }
        List<long[]> ranges = client.getRanges();
        assertThat(ranges).hasSize(4);
        assertThat(ranges.get(3)[0]).isEqualTo(2000 + PositionalReadAhead.FIRST_BLOCK_BYTES);
        assertThat(length(ranges.get(3))).isEqualTo(4L * PositionalReadAhead.FIRST_BLOCK_BYTES);
    }

    @Test
    void aWalkToTheEndOfAnObjectOfUnknownLengthEndsThere() throws IOException {
        byte[] source = store(300_000);

        try (S3SeekableInputStream in = open(-1, budget)) {
            byte[] read = walk(in, 0, source.length, 10_000);
            assertThat(read).isEqualTo(source);
            byte[] b = new byte[10_000];
            assertThat(in.read(source.length, b, 0, b.length)).isEqualTo(-1);
            assertThat(in.read(source.length - 10, b, 0, b.length)).isEqualTo(10);
        }
        assertThat(budget.heldBytes()).isZero();
    }

    @Test
    void withoutRoomInTheBudgetEveryReadGoesToTheServerAsItIs() throws IOException {
        byte[] source = store(MIB);
        // Room for less than two reads: no block fits, not even the shorter ones near the object's end.
        ReadAheadBudget full = new ReadAheadBudget(2 * 16 * KIB - 1);

        try (S3SeekableInputStream in = open(source.length, full)) {
            assertThat(walk(in, 0, source.length, 16 * KIB)).isEqualTo(source);
        }
        assertThat(client.calls(Operation.GET)).isEqualTo(64);
        assertThat(full.peakHeldBytes()).isZero();
    }

    @Test
    void blocksSendIfMatchSoAReplacedObjectFailsTheWalk() throws IOException {
        byte[] source = store(MIB);

        try (S3SeekableInputStream in = open(source.length, budget)) {
            readAt(in, source, 0, BLOCK);
            readAt(in, source, BLOCK, BLOCK);
            client.store(LOCATION, new byte[MIB]);
            assertThatThrownBy(() -> in.readFully(2 * BLOCK, new byte[BLOCK], 0, BLOCK))
                    .isInstanceOf(ObjectChangedException.class)
                    .hasMessageContaining(LOCATION.toString());
        }
        assertThat(budget.heldBytes())
                .as("a failed block keeps nothing of the budget")
                .isZero();
    }

    @Test
    void aBlockBrokenMidBodyIsRequestedAgainFromWhereItBroke() throws IOException {
        byte[] source = store(MIB);
        client.inject(Fault.on(Operation.GET)
                .atCall(3)
                .afterBytes(10_000)
                .failingWith(new SocketException("Connection reset")));

        try (S3SeekableInputStream in = open(source.length, budget)) {
            assertThat(walk(in, 0, 200_000, BLOCK)).isEqualTo(Arrays.copyOf(source, 200_000));
        }
    }

    @Test
    void threadsWalkingTheSameStreamAtOnceReadTheRightBytes() throws Exception {
        byte[] source = store(4 * MIB);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try (S3SeekableInputStream in = open(source.length, budget)) {
            List<Future<byte[]>> walks = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int from = t * MIB;
                walks.add(threads.submit(() -> walk(in, from, from + MIB, BLOCK)));
            }
            for (int t = 0; t < 4; t++) {
                assertThat(walks.get(t).get(30, TimeUnit.SECONDS))
                        .isEqualTo(Arrays.copyOfRange(source, t * MIB, (t + 1) * MIB));
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(budget.heldBytes()).isZero();
    }

    @Test
    void positionalReadsIntoADirectBufferFromABlock() throws IOException {
        byte[] source = store(MIB);

        try (S3SeekableInputStream in = open(source.length, budget)) {
            // Two reads of their own, then seven from the first block (64 KiB from the third read on).
            for (int i = 0; i < 9; i++) {
                ByteBuffer direct = ByteBuffer.allocateDirect(BLOCK);
                in.readFully((long) i * BLOCK, direct);
                assertThat(direct.position()).isEqualTo(BLOCK);
                direct.flip();
                byte[] got = new byte[BLOCK];
                direct.get(got);
                assertThat(got).isEqualTo(Arrays.copyOfRange(source, i * BLOCK, (i + 1) * BLOCK));
            }
        }
        assertThat(client.calls(Operation.GET)).isEqualTo(3);
    }

    private S3SeekableInputStream open(long knownLength, ReadAheadBudget readAhead) {
        return new S3SeekableInputStream(client, LOCATION, settings, knownLength, readAhead);
    }

    private byte[] store(int size) {
        byte[] data = new byte[size];
        new Random(size).nextBytes(data);
        client.store(LOCATION, data);
        return data;
    }

    /** Positional reads of {@code step} bytes from {@code from} to {@code to}, each where the last ended. */
    private static byte[] walk(S3SeekableInputStream in, long from, long to, int step) throws IOException {
        byte[] read = new byte[(int) (to - from)];
        int done = 0;
        while (done < read.length) {
            int n = in.read(from + done, read, done, Math.min(step, read.length - done));
            assertThat(n).as("read at %d", from + done).isPositive();
            done += n;
        }
        return read;
    }

    private static void readAt(S3SeekableInputStream in, byte[] source, long at, int len) throws IOException {
        byte[] b = new byte[len];
        in.readFully(at, b, 0, len);
        assertThat(b).isEqualTo(Arrays.copyOfRange(source, (int) at, (int) at + len));
    }

    private static long length(long[] range) {
        return range[1] - range[0];
    }
}
