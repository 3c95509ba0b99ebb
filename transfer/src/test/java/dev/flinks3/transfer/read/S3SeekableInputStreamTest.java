package dev.flinks3.transfer.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The single-connection read path of {@link S3SeekableInputStream} against the in-memory fake. */
class S3SeekableInputStreamTest {

    private static final int RANGE = 256 * 1024;
    private static final S3Location LOCATION = S3Location.of("s3", "bucket", "dir/state file+1");

    private final InMemoryObjectClient client = new InMemoryObjectClient();
    private final ReadSettings settings =
            ReadSettings.builder().readAheadBytes(RANGE).readAheadParallelism(1).build();

    @Test
    void opensNothingUntilTheFirstRead() throws IOException {
        store(1000);

        try (S3SeekableInputStream in = open(-1)) {
            in.seek(500);
            assertThat(in.getPos()).isEqualTo(500);
        }

        assertThat(client.calls(Operation.GET)).isZero();
        assertThat(client.calls(Operation.HEAD)).isZero();
    }

    @Test
    void sequentialReadsReturnTheObjectWithOneGetPerRange() throws IOException {
        byte[] source = store(5 * RANGE / 2 + 17);

        byte[] read;
        try (S3SeekableInputStream in = open(-1)) {
            read = readToEnd(in, new Random(7));
            assertThat(in.read()).isEqualTo(-1);
            assertThat(in.getPos()).isEqualTo(source.length);
        }

        assertThat(crc(read)).isEqualTo(crc(source));
        assertThat(read).isEqualTo(source);
        assertThat(client.calls(Operation.GET)).isEqualTo(3);
        assertThat(client.abortedRangeStreams()).isZero();
        assertThat(client.openRangeStreams()).isZero();
    }

    @Test
    void singleByteReadsFollowTheObject() throws IOException {
        byte[] source = store(3000);

        try (S3SeekableInputStream in = open(-1)) {
            for (int i = 0; i < source.length; i++) {
                assertThat(in.read()).as("byte %d", i).isEqualTo(source[i] & 0xFF);
            }
            assertThat(in.read()).isEqualTo(-1);
        }
        assertThat(client.calls(Operation.GET)).isEqualTo(1);
    }

    @Test
    void smallForwardSeekSkipsOnTheOpenConnection() throws IOException {
        byte[] source = store(RANGE);

        try (S3SeekableInputStream in = open(-1)) {
            assertThat(readN(in, 100)).isEqualTo(slice(source, 0, 100));
            in.seek(5_000);
            assertThat(readN(in, 100)).isEqualTo(slice(source, 5_000, 100));
            assertThat(in.skip(1_000)).isEqualTo(1_000);
            assertThat(readN(in, 100)).isEqualTo(slice(source, 6_100, 100));
        }

        assertThat(client.calls(Operation.GET)).isEqualTo(1);
    }

    @Test
    void backwardSeekReopensAtTheNextRead() throws IOException {
        byte[] source = store(RANGE);

        try (S3SeekableInputStream in = open(-1)) {
            assertThat(readN(in, 1_000)).isEqualTo(slice(source, 0, 1_000));
            in.seek(10);
            assertThat(client.calls(Operation.GET)).isEqualTo(1);
            assertThat(readN(in, 100)).isEqualTo(slice(source, 10, 100));
            assertThat(client.calls(Operation.GET)).isEqualTo(2);
            // The first range had far more than the drain limit left, so its connection was dropped.
            assertThat(client.abortedRangeStreams()).isEqualTo(1);
        }
    }

    @Test
    void theFirstGetAfterASeekIsSmallAndRangesGrowWhileTheReaderStaysSequential() throws IOException {
        ReadSettings bigRanges = ReadSettings.builder()
                .readAheadBytes(8L * 1024 * 1024)
                .readAheadParallelism(1)
                .build();
        byte[] source = store(8 * 1024 * 1024);
        int first = ReadPolicy.FIRST_RANGE_AFTER_SEEK_BYTES;
        long at = 3 * 1024 * 1024;

        try (S3SeekableInputStream in = new S3SeekableInputStream(client, LOCATION, bigRanges, source.length)) {
            in.seek(at);
            assertThat(readN(in, 16 * 1024)).isEqualTo(slice(source, (int) at, 16 * 1024));
            // Reading on past the small range: each next range is RANGE_GROWTH times larger.
            int rest = first - 16 * 1024 + first * ReadPolicy.RANGE_GROWTH + 10;
            assertThat(readN(in, rest)).isEqualTo(slice(source, (int) at + 16 * 1024, rest));
        }

        assertThat(client.getRanges())
                .extracting(r -> r[1] - r[0])
                .containsExactly(
                        (long) first,
                        (long) first * ReadPolicy.RANGE_GROWTH,
                        (long) first * ReadPolicy.RANGE_GROWTH * ReadPolicy.RANGE_GROWTH);
        assertThat(client.getRanges().get(0)[0]).isEqualTo(at);
    }

    @Test
    void randomSeekAndReadAsksTheServerForLittleMoreThanItReads() throws IOException {
        ReadSettings bigRanges = ReadSettings.builder()
                .readAheadBytes(8L * 1024 * 1024)
                .readAheadParallelism(8)
                .build();
        byte[] source = store(16 * 1024 * 1024);
        Random random = new Random(3);

        try (S3SeekableInputStream in = new S3SeekableInputStream(client, LOCATION, bigRanges, source.length)) {
            for (int i = 0; i < 50; i++) {
                int at = random.nextInt(source.length - 16 * 1024);
                in.seek(at);
                assertThat(readN(in, 16 * 1024)).isEqualTo(slice(source, at, 16 * 1024));
            }
        }

        assertThat(client.getRanges())
                .hasSize(50)
                .allSatisfy(r -> assertThat(r[1] - r[0]).isEqualTo(ReadPolicy.FIRST_RANGE_AFTER_SEEK_BYTES));
    }

    @Test
    void aReadLargerThanTheFirstRangeAfterASeekGetsItsLengthInOneGet() throws IOException {
        ReadSettings bigRanges = ReadSettings.builder()
                .readAheadBytes(8L * 1024 * 1024)
                .readAheadParallelism(1)
                .build();
        byte[] source = store(4 * 1024 * 1024);
        int len = 3 * ReadPolicy.FIRST_RANGE_AFTER_SEEK_BYTES;

        try (S3SeekableInputStream in = new S3SeekableInputStream(client, LOCATION, bigRanges, source.length)) {
            in.seek(1000);
            byte[] buffer = new byte[len];
            int n = in.read(buffer, 0, len);
            assertThat(n).isEqualTo(len);
            assertThat(buffer).isEqualTo(slice(source, 1000, len));
        }

        assertThat(client.getRanges()).extracting(r -> r[1] - r[0]).containsExactly((long) len);
    }

    @Test
    void longForwardSeekReopensInsteadOfSkipping() throws IOException {
        ReadSettings bigRanges = ReadSettings.builder()
                .readAheadBytes(4L * 1024 * 1024)
                .readAheadParallelism(1)
                .build();
        byte[] source = store(3 * 1024 * 1024);
        long far = 100 + ReadPolicy.MAX_FORWARD_SKIP_BYTES + 1;

        try (S3SeekableInputStream in = new S3SeekableInputStream(client, LOCATION, bigRanges, -1)) {
            assertThat(readN(in, 100)).isEqualTo(slice(source, 0, 100));
            in.seek(far);
            assertThat(readN(in, 100)).isEqualTo(slice(source, (int) far, 100));
        }

        assertThat(client.calls(Operation.GET)).isEqualTo(2);
    }

    @Test
    void positionalReadsSendOneGetEachAndDoNotMoveTheStream() throws IOException {
        byte[] source = store(4 * RANGE);

        try (S3SeekableInputStream in = open(-1)) {
            assertThat(readN(in, 100)).isEqualTo(slice(source, 0, 100));
            client.resetCounters();
            Random random = new Random(11);
            for (int i = 0; i < 50; i++) {
                int at = random.nextInt(source.length - 16 * 1024);
                byte[] b = new byte[16 * 1024];
                assertThat(in.read(at, b, 0, b.length)).isEqualTo(b.length);
                assertThat(b).isEqualTo(slice(source, at, b.length));
                assertThat(in.getPos()).isEqualTo(100);
            }
            assertThat(client.calls(Operation.GET)).isEqualTo(50);

            // The sequential connection is untouched: the next read continues on it.
            assertThat(readN(in, 100)).isEqualTo(slice(source, 100, 100));
            assertThat(client.calls(Operation.GET)).isEqualTo(50);
        }
    }

    @Test
    void positionalReadsIntoHeapAndDirectBuffers() throws IOException {
        byte[] source = store(200_000);

        try (S3SeekableInputStream in = open(-1)) {
            ByteBuffer heap = ByteBuffer.allocate(1_000);
            heap.position(10);
            assertThat(in.read(5_000, heap)).isEqualTo(990);
            assertThat(heap.position()).isEqualTo(1_000);
            assertThat(slice(heap.array(), 10, 990)).isEqualTo(slice(source, 5_000, 990));

            ByteBuffer direct = ByteBuffer.allocateDirect(150_000);
            in.readFully(20_000, direct);
            direct.flip();
            byte[] got = new byte[direct.remaining()];
            direct.get(got);
            assertThat(got).isEqualTo(slice(source, 20_000, 150_000));

            byte[] exact = new byte[300];
            in.readFully(199_700, exact, 0, 300);
            assertThat(exact).isEqualTo(slice(source, 199_700, 300));
            assertThat(in.getPos()).isZero();
        }
        assertThat(client.calls(Operation.GET)).isEqualTo(3);
    }

    @Test
    void positionalReadsAtAndPastTheEnd() throws IOException {
        byte[] source = store(1_000);

        try (S3SeekableInputStream in = open(-1)) {
            byte[] b = new byte[100];
            assertThat(in.read(950, b, 0, 100)).isEqualTo(50);
            assertThat(slice(b, 0, 50)).isEqualTo(slice(source, 950, 50));
            assertThat(in.read(1_000, b, 0, 100)).isEqualTo(-1);
            assertThat(in.read(5_000, ByteBuffer.allocateDirect(10))).isEqualTo(-1);
            assertThatThrownBy(() -> in.readFully(950, b, 0, 100))
                    .isInstanceOf(EOFException.class)
                    .hasMessageContaining(LOCATION.toString());
            assertThatThrownBy(() -> in.read(-1, b, 0, 1)).isInstanceOf(EOFException.class);
        }
    }

    @Test
    void readsAtTheEndReturnMinusOne() throws IOException {
        byte[] source = store(1_000);

        try (S3SeekableInputStream in = open(-1)) {
            assertThat(readN(in, 1_000)).isEqualTo(source);
            assertThat(in.read(new byte[10], 0, 10)).isEqualTo(-1);
            assertThat(in.read()).isEqualTo(-1);
            in.seek(50_000);
            assertThat(in.read()).isEqualTo(-1);
            assertThat(in.available()).isZero();
        }
    }

    @Test
    void readingPastTheEndWithAnUnknownLengthReturnsMinusOne() throws IOException {
        store(1_000);

        try (S3SeekableInputStream in = open(-1)) {
            in.seek(1_000);
            assertThat(in.read()).isEqualTo(-1);
            in.seek(1_000_000);
            assertThat(in.read(new byte[5], 0, 5)).isEqualTo(-1);
        }
    }

    @Test
    void zeroByteObjectReadsAsEmpty() throws IOException {
        client.store(LOCATION, new byte[0]);

        try (S3SeekableInputStream in = open(-1)) {
            assertThat(in.read()).isEqualTo(-1);
            assertThat(in.read(new byte[10], 0, 10)).isEqualTo(-1);
            assertThat(in.read(0, new byte[10], 0, 10)).isEqualTo(-1);
        }
        try (S3SeekableInputStream in = open(0)) {
            client.resetCounters();
            assertThat(in.read()).isEqualTo(-1);
            assertThat(in.length()).isZero();
            assertThat(client.calls(Operation.GET)).isZero();
            assertThat(client.calls(Operation.HEAD)).isZero();
        }
    }

    @Test
    void rangeNotSatisfiableOnAnEmptyObjectReadsAsEmpty() throws IOException {
        client.store(LOCATION, new byte[0]);
        // Some servers answer a ranged GET of an empty object with 416 instead of the empty body.
        client.inject(Fault.on(Operation.GET)
                .always()
                .failingWith(
                        () -> new S3RequestException("GetObject", LOCATION.toString(), 416, "InvalidRange", null)));

        try (S3SeekableInputStream in = open(-1)) {
            assertThat(in.read()).isEqualTo(-1);
            assertThat(in.read(0, ByteBuffer.allocate(4))).isEqualTo(-1);
        }
    }

    @Test
    void connectionResetMidBodyIsRetriedFromTheCurrentPosition() throws IOException {
        byte[] source = store(RANGE);
        client.inject(Fault.on(Operation.GET)
                .atCall(1)
                .afterBytes(10_001)
                .failingWith(new SocketException("Connection reset")));

        byte[] read;
        try (S3SeekableInputStream in = open(-1)) {
            read = readToEnd(in, new Random(3));
        }

        assertThat(read).isEqualTo(source);
        assertThat(client.calls(Operation.GET)).isEqualTo(2);
    }

    @Test
    void positionalReadIsRetriedAfterAReset() throws IOException {
        byte[] source = store(100_000);
        client.inject(
                Fault.on(Operation.GET).atCall(1).afterBytes(777).failingWith(new SocketException("Connection reset")));

        try (S3SeekableInputStream in = open(-1)) {
            byte[] b = new byte[50_000];
            in.readFully(1_000, b, 0, b.length);
            assertThat(b).isEqualTo(slice(source, 1_000, 50_000));
        }
        assertThat(client.calls(Operation.GET)).isEqualTo(2);
    }

    @Test
    void retriesAreBoundedAndKeepEveryCause() throws IOException {
        store(RANGE);
        client.inject(Fault.on(Operation.GET)
                .always()
                .afterBytes(10)
                .failingWith(() -> new SocketException("Connection reset")));

        try (S3SeekableInputStream in = open(-1)) {
            assertThatThrownBy(() -> readN(in, 1_000))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(LOCATION.toString())
                    .hasCauseInstanceOf(SocketException.class)
                    .satisfies(e -> assertThat(e.getSuppressed()).hasSize(RangeReader.MAX_ATTEMPTS - 1));
        }
        assertThat(client.calls(Operation.GET)).isEqualTo(RangeReader.MAX_ATTEMPTS);
    }

    @Test
    void missingObjectIsFileNotFoundNamingTheLocationAndNotRetried() throws IOException {
        try (S3SeekableInputStream in = open(-1)) {
            assertThatThrownBy(in::read)
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessageContaining("s3://bucket/dir/state file+1");
            assertThatThrownBy(in::length).isInstanceOf(FileNotFoundException.class);
        }
        assertThat(client.calls(Operation.GET)).isEqualTo(1);
    }

    @Test
    void fileNotFoundMidBodyIsNotRetried() throws IOException {
        store(RANGE);
        client.inject(Fault.on(Operation.GET)
                .always()
                .afterBytes(10)
                .failingWith(() -> new FileNotFoundException("gone: " + LOCATION)));

        try (S3SeekableInputStream in = open(-1)) {
            assertThatThrownBy(() -> readN(in, 100)).isInstanceOf(FileNotFoundException.class);
        }
        assertThat(client.calls(Operation.GET)).isEqualTo(1);
    }

    @Test
    void objectReplacedBetweenRangesFailsInsteadOfMixingVersions() throws IOException {
        store(2 * RANGE);

        try (S3SeekableInputStream in = open(-1)) {
            readN(in, 100);
            client.store(LOCATION, new byte[3 * RANGE]);
            in.seek(0);
            assertThatThrownBy(() -> readN(in, 100))
                    .isInstanceOf(ObjectChangedException.class)
                    .hasMessageContaining("changed while it was read");
        }
    }

    @Test
    void objectReplacedByOneOfTheSameLengthFailsEveryLaterRead() throws IOException {
        byte[] data = store(2 * RANGE);

        try (S3SeekableInputStream in = open(-1)) {
            assertThat(readN(in, 100)).isEqualTo(Arrays.copyOf(data, 100));
            byte[] other = data.clone();
            other[0] ^= 1;
            client.store(LOCATION, other);
            in.seek(RANGE + 5);
            assertThatThrownBy(() -> readN(in, 100))
                    .isInstanceOf(ObjectChangedException.class)
                    .hasMessageContaining(LOCATION.toString());
            assertThatThrownBy(() -> in.readFully(0, new byte[10], 0, 10)).isInstanceOf(ObjectChangedException.class);
        }
    }

    @Test
    void closeAbortsAHalfReadRange() throws IOException {
        store(RANGE);

        S3SeekableInputStream in = open(-1);
        readN(in, 10);
        in.close();
        in.close();

        assertThat(client.abortedRangeStreams()).isEqualTo(1);
        assertThat(client.openRangeStreams()).isZero();
        assertThatThrownBy(in::read).isInstanceOf(IOException.class).hasMessageContaining("closed");
    }

    @Test
    void closeDrainsASmallRemainderSoTheConnectionIsReused() throws IOException {
        store(RANGE);

        S3SeekableInputStream in = open(-1);
        readN(in, RANGE - 100);
        in.close();

        assertThat(client.abortedRangeStreams()).isZero();
        assertThat(client.openRangeStreams()).isZero();
    }

    @Test
    void lengthComesFromTheGetOrOneHead() throws IOException {
        store(1_234);

        try (S3SeekableInputStream in = open(-1)) {
            assertThat(in.length()).isEqualTo(1_234);
            assertThat(in.length()).isEqualTo(1_234);
            assertThat(client.calls(Operation.HEAD)).isEqualTo(1);
        }
        try (S3SeekableInputStream in = open(-1)) {
            in.read();
            assertThat(in.length()).isEqualTo(1_234);
            assertThat(in.available()).isEqualTo(1_233);
        }
        assertThat(client.calls(Operation.HEAD)).isEqualTo(1);
    }

    @Test
    void skipStopsAtTheEnd() throws IOException {
        store(1_000);

        try (S3SeekableInputStream in = open(1_000)) {
            assertThat(in.skip(-5)).isZero();
            assertThat(in.skip(400)).isEqualTo(400);
            assertThat(in.skip(10_000)).isEqualTo(600);
            assertThat(in.getPos()).isEqualTo(1_000);
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void sequentialReadIntoADirectBuffer() throws IOException {
        byte[] source = store(100_000);

        try (S3SeekableInputStream in = open(-1)) {
            in.seek(1_000);
            ByteBuffer direct = ByteBuffer.allocateDirect(99_000);
            while (direct.hasRemaining()) {
                assertThat(in.read(direct)).isPositive();
            }
            direct.flip();
            byte[] got = new byte[99_000];
            direct.get(got);
            assertThat(got).isEqualTo(slice(source, 1_000, 99_000));
            assertThat(in.read(ByteBuffer.allocate(1))).isEqualTo(-1);
        }
    }

    @Test
    void negativeSeekFails() throws IOException {
        try (S3SeekableInputStream in = open(-1)) {
            assertThatThrownBy(() -> in.seek(-1))
                    .isInstanceOf(EOFException.class)
                    .hasMessageContaining("-1");
        }
    }

    // ---------------------------------------------------------------- helpers

    /**
     * A stream that never takes its connection for a fast one, so its ranges keep the configured size: the
     * in-memory client answers faster than any network (ranges growing on a fast connection are in {@code
     * ParallelReadAheadTest}).
     */
    private S3SeekableInputStream open(long knownLength) {
        return new S3SeekableInputStream(client, LOCATION, settings, knownLength, null, Long.MAX_VALUE);
    }

    private byte[] store(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        client.store(LOCATION, bytes);
        return bytes;
    }

    /** Reads to the end with reads of random sizes (1 byte to 64 KiB). */
    static byte[] readToEnd(S3SeekableInputStream in, Random random) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        while (true) {
            int n = in.read(buffer, 0, 1 + random.nextInt(buffer.length));
            if (n < 0) {
                return out.toByteArray();
            }
            out.write(buffer, 0, n);
        }
    }

    static byte[] readN(S3SeekableInputStream in, int n) throws IOException {
        byte[] b = new byte[n];
        int done = 0;
        while (done < n) {
            int r = in.read(b, done, n - done);
            if (r < 0) {
                return Arrays.copyOf(b, done);
            }
            done += r;
        }
        return b;
    }

    static byte[] slice(byte[] source, int from, int length) {
        return Arrays.copyOfRange(source, from, from + length);
    }

    static long crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }
}
