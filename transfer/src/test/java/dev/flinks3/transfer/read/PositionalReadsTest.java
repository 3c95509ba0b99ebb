package dev.flinks3.transfer.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import java.io.IOException;
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
 * Positional reads of {@link S3SeekableInputStream} against the in-memory fake, counting the ranged GETs: a walk
 * (each read where the one before ended, as an SST iterator reads its blocks, into direct buffers) reads from
 * streamed ranges, random reads stay one exact GET each, walks of several threads on one stream are told apart,
 * and the open walks of the process stay within the budget.
 */
@Timeout(60)
class PositionalReadsTest {

    private static final int KIB = 1024;
    private static final int MIB = 1024 * KIB;
    private static final S3Location LOCATION = S3Location.of("s3", "bucket", "db/000042.sst");

    private final InMemoryObjectClient client = new InMemoryObjectClient();
    private final ReadSettings settings = ReadSettings.builder().build();

    @Test
    void aWalkOf2048BlocksIntoDirectBuffersTakesAtMostEightGets() throws IOException {
        byte[] source = store(40 * MIB);
        ReadAheadBudget budget = new ReadAheadBudget(256L * MIB);

        try (S3SeekableInputStream in = open(source.length, budget)) {
            ByteBuffer block = ByteBuffer.allocateDirect(16 * KIB);
            for (int i = 0; i < 2048; i++) {
                block.clear();
                in.readFully((long) i * 16 * KIB, block);
                block.flip();
                assertBlock(block, source, (long) i * 16 * KIB);
            }
            assertThat(in.openWalks()).isEqualTo(1);
        }

        List<long[]> ranges = client.getRanges();
        assertThat(ranges).hasSizeLessThanOrEqualTo(8);
        assertThat(length(ranges.get(0))).as("the first read is exact").isEqualTo(16 * KIB);
        assertThat(length(ranges.get(1))).as("the second read is exact").isEqualTo(16 * KIB);
        assertThat(length(ranges.get(2))).as("the walk's first range").isEqualTo(ReadPolicy.FIRST_WALK_RANGE_BYTES);
        assertThat(client.openRangeStreams()).isZero();
        assertThat(budget.openWalks()).isZero();
    }

    @Test
    void aWalkAsksItsRangeForManyBlocksAtOnce() throws IOException {
        byte[] source = store(8 * MIB);

        try (S3SeekableInputStream in = open(source.length, new ReadAheadBudget(64L * MIB))) {
            ByteBuffer block = ByteBuffer.allocateDirect(16 * KIB);
            for (int i = 0; i < 512; i++) {
                block.clear();
                in.readFully((long) i * 16 * KIB, block);
                block.flip();
                assertBlock(block, source, (long) i * 16 * KIB);
            }
        }

        // Each read of a range's body is a system call on a socket: one per 8 blocks of the walk, not one per block.
        int blocksPerRead = PositionalReads.WALK_BUFFER_BYTES / (16 * KIB);
        assertThat(client.rangeStreamReads()).isLessThanOrEqualTo(2 + 512 / blocksPerRead + 8);
    }

    @Test
    void randomReadsAreOneExactGetEach() throws IOException {
        byte[] source = store(8 * MIB);
        Random random = new Random(11);

        try (S3SeekableInputStream in = open(source.length, new ReadAheadBudget(64L * MIB))) {
            byte[] block = new byte[4 * KIB];
            for (int i = 0; i < 100; i++) {
                long at = random.nextInt(source.length - block.length);
                in.readFully(at, block, 0, block.length);
                assertThat(block).isEqualTo(Arrays.copyOfRange(source, (int) at, (int) at + block.length));
            }
            assertThat(in.openWalks()).isZero();
        }

        assertThat(client.getRanges())
                .hasSize(100)
                .allSatisfy(r -> assertThat(length(r)).isEqualTo(4 * KIB));
    }

    @Test
    void walksOfTwoReadersInterleavedOnOneStreamAreBothStreamed() throws IOException {
        byte[] source = store(16 * MIB);

        try (S3SeekableInputStream in = open(source.length, new ReadAheadBudget(64L * MIB))) {
            byte[] block = new byte[16 * KIB];
            for (int i = 0; i < 200; i++) {
                for (long base : new long[] {0, 8 * MIB}) {
                    long at = base + (long) i * block.length;
                    in.readFully(at, block, 0, block.length);
                    assertThat(block).isEqualTo(Arrays.copyOfRange(source, (int) at, (int) at + block.length));
                }
            }
            assertThat(in.openWalks()).isEqualTo(2);
        }

        // Two exact reads and a few streamed ranges per walk, not a GET per read.
        assertThat(client.getRanges()).hasSizeLessThanOrEqualTo(10);
    }

    @Test
    void concurrentReadersOfOneStreamGetTheirBytes() throws Exception {
        byte[] source = store(12 * MIB);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try (S3SeekableInputStream in = open(source.length, new ReadAheadBudget(64L * MIB))) {
            List<Future<?>> readers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                readers.add(threads.submit(() -> {
                    Random random = new Random(thread);
                    ByteBuffer block = ByteBuffer.allocateDirect(8 * KIB);
                    long walk = (long) thread * 3 * MIB;
                    for (int i = 0; i < 300; i++) {
                        long at = thread % 2 == 0 ? walk + (long) i * block.capacity() : random.nextInt(11 * MIB);
                        block.clear();
                        in.readFully(at, block);
                        block.flip();
                        assertBlock(block, source, at);
                    }
                    return null;
                }));
            }
            for (Future<?> reader : readers) {
                reader.get(30, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(client.openRangeStreams()).isZero();
    }

    @Test
    void walksBeyondTheBudgetReadExactlyUntilOneIsIdle() throws Exception {
        byte[] source = store(4 * MIB);
        ReadAheadBudget oneWalk = new ReadAheadBudget(64L * MIB, 1);

        try (S3SeekableInputStream first = open(source.length, oneWalk);
                S3SeekableInputStream second = open(source.length, oneWalk)) {
            walk(first, 0, 10);
            assertThat(first.openWalks()).isEqualTo(1);
            client.resetCounters();
            int before = client.getRanges().size();

            walk(second, 0, 10);
            assertThat(second.openWalks())
                    .as("no walk while the other one is in use")
                    .isZero();
            assertThat(client.getRanges().size() - before).isEqualTo(10);

            Thread.sleep(PositionalReads.IDLE_WALK_MILLIS + 100);
            walk(second, 10 * 16 * KIB, 10);
            assertThat(second.openWalks()).as("the idle walk gave way").isEqualTo(1);
            assertThat(first.openWalks()).isZero();
        }
        assertThat(oneWalk.openWalks()).isZero();
    }

    /**
     * A walk that takes longer over its blocks than the connection takes to deliver them (ForSt decodes each block of
     * an SST it scans) is not a slow connection: it stays on one streamed range that grows, with no parallel
     * read-ahead. The walk's own time here is 2 ms a block; the connection (the in-memory fake) waits nothing.
     */
    @Test
    void aWalkSlowerThanItsConnectionStaysOnOneStreamedRange() throws Exception {
        byte[] source = store(4 * MIB);
        ReadSettings oneMibRanges = ReadSettings.builder()
                .readAheadBytes(MIB)
                .readAheadParallelism(4)
                .build();

        // 10 MB/s counts as fast: the walk's 1 MiB at 2 ms per 16 KiB block is 8 MB/s with the walk's time counted.
        try (S3SeekableInputStream in = new S3SeekableInputStream(
                client, LOCATION, oneMibRanges, source.length, new ReadAheadBudget(64L * MIB), 10_000_000L)) {
            ByteBuffer block = ByteBuffer.allocateDirect(16 * KIB);
            for (int i = 0; i < source.length / (16 * KIB); i++) {
                block.clear();
                in.readFully((long) i * 16 * KIB, block);
                block.flip();
                assertBlock(block, source, (long) i * 16 * KIB);
                Thread.sleep(2); // the caller's work on the block
            }
        }

        List<long[]> ranges = client.getRanges();
        assertThat(ranges)
                .as("two exact reads, the walk's first range, then one range to the end")
                .hasSize(4);
        assertThat(length(ranges.get(3))).isGreaterThanOrEqualTo(3 * MIB - 2 * 16 * KIB);
    }

    private void walk(S3SeekableInputStream in, long from, int reads) throws IOException {
        byte[] block = new byte[16 * KIB];
        for (int i = 0; i < reads; i++) {
            in.readFully(from + (long) i * block.length, block, 0, block.length);
        }
    }

    /** A stream whose connection counts as fast (a LAN): a walk's ranges grow instead of going parallel. */
    private S3SeekableInputStream open(long length, ReadAheadBudget budget) {
        return new S3SeekableInputStream(client, LOCATION, settings, length, budget, 1);
    }

    private byte[] store(int length) {
        byte[] data = new byte[length];
        new Random(length).nextBytes(data);
        client.store(LOCATION, data);
        return data;
    }

    private static void assertBlock(ByteBuffer block, byte[] source, long at) {
        byte[] read = new byte[block.remaining()];
        block.get(read);
        assertThat(read).isEqualTo(Arrays.copyOfRange(source, (int) at, (int) at + read.length));
    }

    private static long length(long[] range) {
        return range[1] - range[0];
    }
}
