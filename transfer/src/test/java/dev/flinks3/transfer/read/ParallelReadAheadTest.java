package dev.flinks3.transfer.read;

import static dev.flinks3.transfer.read.S3SeekableInputStreamTest.crc;
import static dev.flinks3.transfer.read.S3SeekableInputStreamTest.readN;
import static dev.flinks3.transfer.read.S3SeekableInputStreamTest.readToEnd;
import static dev.flinks3.transfer.read.S3SeekableInputStreamTest.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.Gate;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Parallel read-ahead of {@link S3SeekableInputStream} ({@link ParallelReadAhead}, {@link ReadAheadChunk}). */
class ParallelReadAheadTest {

    private static final int CHUNK = 64 * 1024;
    private static final int PARALLELISM = 4;
    private static final S3Location LOCATION = S3Location.of("s3", "bucket", "checkpoints/chk-7/state");

    private final ReadSettings settings = ReadSettings.builder()
            .readAheadBytes(CHUNK)
            .readAheadParallelism(PARALLELISM)
            .build();
    private final ExecutorService pool = Executors.newFixedThreadPool(PARALLELISM);
    /** Completes GETs on the calling thread; {@link #completingOnOtherThreads()} switches to the pool. */
    private InMemoryObjectClient client = new InMemoryObjectClient();

    @AfterEach
    void stopPool() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void startsOnlyWhenTheReaderGoesPastItsFirstRange() throws IOException {
        byte[] source = store(16 * CHUNK + 123);

        try (S3SeekableInputStream in = open()) {
            assertThat(readN(in, CHUNK)).isEqualTo(slice(source, 0, CHUNK));
            assertThat(client.calls(Operation.GET)).isEqualTo(1);
            assertThat(in.readAheadBufferedBytes()).isZero();

            assertThat(readN(in, 1)).isEqualTo(slice(source, CHUNK, 1));
            // The whole window went out at once, each chunk one GET into its own buffer.
            assertThat(client.calls(Operation.GET)).isEqualTo(1 + PARALLELISM);
            assertThat(in.readAheadBufferedBytes()).isEqualTo((long) PARALLELISM * CHUNK);
        }
    }

    @Test
    void windowSlidesWithTheReaderWithinItsMemoryBudget() throws IOException {
        byte[] source = store(16 * CHUNK + 123);

        byte[] read = new byte[source.length];
        int done = 0;
        Random random = new Random(5);
        try (S3SeekableInputStream in = open()) {
            while (true) {
                int n = in.read(read, done, Math.min(read.length - done, 1 + random.nextInt(CHUNK / 3)));
                if (n <= 0) {
                    break;
                }
                done += n;
                assertThat(in.readAheadBufferedBytes()).isLessThanOrEqualTo((long) PARALLELISM * CHUNK);
            }
        }

        assertThat(done).isEqualTo(source.length);
        assertThat(read).isEqualTo(source);
        // One range of CHUNK bytes, then one GET per chunk, never one twice.
        assertThat(client.calls(Operation.GET)).isEqualTo(17);
        assertThat(client.openRangeStreams()).isZero();
    }

    @Test
    void sequentialReadWithGetsCompletingOnOtherThreadsReturnsTheObject() throws IOException {
        completingOnOtherThreads();
        byte[] source = store(40 * CHUNK + 7);

        byte[] read;
        try (S3SeekableInputStream in = open()) {
            read = readToEnd(in, new Random(9));
        }

        assertThat(crc(read)).isEqualTo(crc(source));
        assertThat(read).isEqualTo(source);
        assertThat(client.calls(Operation.GET)).isEqualTo(41);
    }

    @Test
    void mixedAccessNeverReturnsWrongBytes() throws IOException {
        completingOnOtherThreads();
        byte[] source = store(3 * 1024 * 1024 + 999);
        Random random = new Random(42);
        int opsWithReadAhead = 0;

        try (S3SeekableInputStream in = open()) {
            for (int op = 0; op < 3_000; op++) {
                int kind = random.nextInt(100);
                long pos = in.getPos();
                if (kind < 60) {
                    int len = 1 + random.nextInt(2 * CHUNK);
                    int expected = (int) Math.min(len, source.length - pos);
                    byte[] got = readN(in, len);
                    assertThat(got)
                            .as("op %d: read %d at %d", op, len, pos)
                            .isEqualTo(slice(source, (int) pos, Math.max(expected, 0)));
                } else if (kind < 75) {
                    in.seek(Math.min(source.length, pos + random.nextInt(3 * CHUNK)));
                } else if (kind < 85) {
                    in.seek(Math.max(0, pos - random.nextInt(2 * CHUNK)));
                } else if (kind < 90) {
                    in.seek(random.nextInt(source.length));
                } else {
                    int at = random.nextInt(source.length);
                    int len = Math.min(1 + random.nextInt(CHUNK), source.length - at);
                    byte[] got = new byte[len];
                    in.readFully(at, got, 0, len);
                    assertThat(got)
                            .as("op %d: positional read %d at %d", op, len, at)
                            .isEqualTo(slice(source, at, len));
                    assertThat(in.getPos()).isEqualTo(pos);
                }
                assertThat(in.readAheadBufferedBytes()).isLessThanOrEqualTo((long) PARALLELISM * CHUNK);
                opsWithReadAhead += in.readAheadBufferedBytes() > 0 ? 1 : 0;
            }
        }
        // Both paths were exercised: the window was up for part of the run, and dropped for the rest.
        assertThat(opsWithReadAhead).isBetween(100, 2_900);
    }

    @Test
    void randomAccessStaysOnTheSingleConnectionPath() throws IOException {
        byte[] source = store(64 * CHUNK);
        Random random = new Random(17);

        try (S3SeekableInputStream in = open()) {
            for (int i = 0; i < 200; i++) {
                int at = random.nextInt(source.length - 16 * 1024);
                in.seek(at);
                assertThat(readN(in, 16 * 1024)).isEqualTo(slice(source, at, 16 * 1024));
                assertThat(in.readAheadBufferedBytes()).isZero();
            }
        }
        assertThat(client.calls(Operation.GET)).isEqualTo(200);
    }

    @Test
    void positionalReadsOnOtherThreadsWhileReadingSequentially() throws Exception {
        completingOnOtherThreads();
        byte[] source = store(40 * CHUNK);
        ExecutorService readers = Executors.newFixedThreadPool(3);
        try (S3SeekableInputStream in = open()) {
            List<Future<?>> positional = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                Random random = new Random(t);
                positional.add(readers.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        int at = random.nextInt(source.length - 4096);
                        byte[] got = new byte[4096];
                        in.readFully(at, got, 0, got.length);
                        assertThat(got).isEqualTo(slice(source, at, got.length));
                    }
                    return null;
                }));
            }
            assertThat(readToEnd(in, new Random(1))).isEqualTo(source);
            for (Future<?> f : positional) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            readers.shutdownNow();
        }
    }

    @Test
    void backwardSeekDropsTheWindowAndCancelsItsWaitingGets() throws Exception {
        byte[] source = store(16 * CHUNK);
        Gate gets = client.gate(Operation.GET);
        ExecutorService reader = Executors.newSingleThreadExecutor();

        try (S3SeekableInputStream in = open()) {
            readN(in, CHUNK);
            gets.close();
            // The reader waits for the window's first chunk; the test lets only that one through.
            Future<byte[]> firstBytes = reader.submit(() -> readN(in, 10));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> gets.held() == PARALLELISM);
            gets.releaseOne();
            assertThat(firstBytes.get(30, TimeUnit.SECONDS)).isEqualTo(slice(source, CHUNK, 10));
            assertThat(in.readAheadBufferedBytes()).isPositive();

            in.seek(5);
            assertThat(readN(in, 100)).isEqualTo(slice(source, 5, 100));
            assertThat(in.readAheadBufferedBytes()).isZero();
            gets.open();
            // The first range, the one chunk let through and the new range: the cancelled chunks sent nothing.
            assertThat(client.calls(Operation.GET)).isEqualTo(3);
        } finally {
            reader.shutdownNow();
        }
    }

    @Test
    void forwardSeekInsideTheWindowIsServedFromIt() throws IOException {
        byte[] source = store(16 * CHUNK);

        try (S3SeekableInputStream in = open()) {
            readN(in, CHUNK + 10);
            int gets = client.calls(Operation.GET);

            in.seek(CHUNK + 2 * CHUNK + 5);
            assertThat(readN(in, 100)).isEqualTo(slice(source, 3 * CHUNK + 5, 100));
            // The window slid by two chunks: two new chunk GETs, no new range.
            assertThat(client.calls(Operation.GET)).isEqualTo(gets + 2);
            assertThat(client.getRanges().subList(gets, gets + 2))
                    .extracting(r -> r[0])
                    .containsExactly((long) (1 + PARALLELISM) * CHUNK, (long) (2 + PARALLELISM) * CHUNK);
        }
    }

    @Test
    void closeReleasesBuffersAndSendsNoWaitingGet() throws IOException {
        byte[] source = store(16 * CHUNK);
        Gate gets = client.gate(Operation.GET);
        gets.close();
        ParallelReadAhead readAhead = new ParallelReadAhead(
                client, LOCATION, 0, source.length, CHUNK, PARALLELISM, new ObjectVersion(LOCATION, -1));
        assertThat(gets.held()).isEqualTo(PARALLELISM);
        gets.releaseOne();
        byte[] b = new byte[10];
        assertThat(readAhead.read(0, b, 0, 10)).isEqualTo(10);
        assertThat(b).isEqualTo(slice(source, 0, 10));
        assertThat(readAhead.bufferedBytes()).isEqualTo((long) PARALLELISM * CHUNK);

        readAhead.close();

        assertThat(readAhead.bufferedBytes()).isZero();
        assertThat(readAhead.covers(0)).isFalse();
        gets.open();
        assertThat(client.calls(Operation.GET)).isEqualTo(1);
        assertThat(client.openRangeStreams()).isZero();
    }

    @Test
    void readersShareTheProcessBudgetAndOneWithoutWindowsReadsOverOneConnection() throws IOException {
        byte[] source = store(16 * CHUNK);
        ReadAheadBudget budget = new ReadAheadBudget((PARALLELISM + 2L) * CHUNK);
        S3SeekableInputStream first = open(budget);
        S3SeekableInputStream second = open(budget);
        S3SeekableInputStream third = open(budget);

        readN(first, CHUNK + 10);
        readN(second, CHUNK + 10);
        readN(third, CHUNK + 10);

        // The first reader took its full window, the second the two windows left, the third none.
        assertThat(budget.heldBytes()).isEqualTo((PARALLELISM + 2L) * CHUNK);
        assertThat(first.readAheadBufferedBytes()).isLessThanOrEqualTo((long) PARALLELISM * CHUNK);
        assertThat(second.readAheadBufferedBytes()).isLessThanOrEqualTo(2L * CHUNK);
        assertThat(third.readAheadBufferedBytes()).isZero();
        byte[] rest = new byte[source.length - (CHUNK + 10)];
        for (S3SeekableInputStream in : new S3SeekableInputStream[] {first, second, third}) {
            int done = 0;
            while (done < rest.length) {
                int n = in.read(rest, done, rest.length - done);
                assertThat(n).isPositive();
                done += n;
            }
            assertThat(rest).isEqualTo(java.util.Arrays.copyOfRange(source, CHUNK + 10, source.length));
            in.close();
        }
        assertThat(budget.heldBytes()).isZero();
    }

    @Test
    void closingTheStreamReleasesItsReadAhead() throws IOException {
        store(16 * CHUNK);
        S3SeekableInputStream in = open();
        readN(in, CHUNK + 10);
        assertThat(in.readAheadBufferedBytes()).isPositive();

        in.close();

        assertThat(in.readAheadBufferedBytes()).isZero();
        assertThat(client.calls(Operation.GET)).isEqualTo(1 + PARALLELISM);
        assertThat(client.openRangeStreams()).isZero();
    }

    @Test
    void cancelledChunkAbortsOrSkipsItsGet() throws IOException {
        byte[] source = store(4 * CHUNK);
        ReadAheadChunk notStarted = new ReadAheadChunk(
                client, LOCATION, 0, CHUNK, source.length, new byte[CHUNK], new ObjectVersion(LOCATION, -1));
        notStarted.cancel();
        notStarted.fetch();
        assertThat(client.calls(Operation.GET)).isZero();
        assertThatThrownBy(notStarted::await).isInstanceOf(InterruptedIOException.class);

        // The fault's error is raised inside the chunk's GET; cancelling there is "close while in flight".
        ReadAheadChunk[] inFlight = new ReadAheadChunk[1];
        client.inject(Fault.on(Operation.GET).afterBytes(100).failingWith(() -> {
            inFlight[0].cancel();
            return new SocketException("Connection reset");
        }));
        inFlight[0] = new ReadAheadChunk(
                client, LOCATION, CHUNK, CHUNK, source.length, new byte[CHUNK], new ObjectVersion(LOCATION, -1));
        inFlight[0].fetch();
        assertThatThrownBy(inFlight[0]::await).isInstanceOf(IOException.class);
        // Cancelled: the broken body was not re-requested.
        assertThat(client.calls(Operation.GET)).isEqualTo(1);
        assertThat(client.openRangeStreams()).isZero();
    }

    @Test
    void resetInsideAChunkIsRetriedFromWhereItBroke() throws IOException {
        completingOnOtherThreads();
        byte[] source = store(20 * CHUNK);
        client.inject(Fault.on(Operation.GET)
                .atCall(4)
                .afterBytes(1_000)
                .failingWith(new SocketException("Connection reset")));

        byte[] read;
        try (S3SeekableInputStream in = open()) {
            read = readToEnd(in, new Random(4));
        }

        assertThat(read).isEqualTo(source);
        assertThat(client.calls(Operation.GET)).isEqualTo(21);
        // The broken chunk was asked for again from its 1,000th byte, not from its start.
        assertThat(client.getRanges()).filteredOn(r -> r[0] % CHUNK == 1_000).hasSize(1);
    }

    @Test
    void objectDeletedDuringReadAheadIsFileNotFound() throws IOException {
        store(20 * CHUNK);

        try (S3SeekableInputStream in = open()) {
            readN(in, CHUNK);
            client.delete(LOCATION);
            assertThatThrownBy(() -> readN(in, 10))
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessageContaining(LOCATION.toString());
        }
    }

    @Test
    void failedChunkReachesTheReaderWithItsCause() throws IOException {
        completingOnOtherThreads();
        store(20 * CHUNK);
        client.inject(Fault.on(Operation.GET)
                .when(call -> call.callNumber() > 1)
                .always()
                .failingWith(
                        () -> new S3RequestException("GetObject", LOCATION.toString(), 403, "AccessDenied", null)));

        try (S3SeekableInputStream in = open()) {
            readN(in, CHUNK);
            assertThatThrownBy(() -> readN(in, 10))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(LOCATION.toString())
                    .hasCauseInstanceOf(S3RequestException.class);
        }
    }

    @Test
    void aReaderOnAFastConnectionStaysOnOneConnection() throws IOException {
        byte[] source = store(16 * CHUNK);
        ReadAheadBudget budget = new ReadAheadBudget(Long.MAX_VALUE);

        // Every connection counts as fast at 1 byte/s: the reader's timing cannot decide the outcome.
        try (S3SeekableInputStream in = new S3SeekableInputStream(client, LOCATION, settings, -1, budget, 1)) {
            assertThat(readToEnd(in, new Random(9))).isEqualTo(source);
            assertThat(in.readAheadBufferedBytes()).isZero();
        }

        assertThat(budget.heldBytes()).isZero();
        // Ranges of 1, 8 and 7 chunks (the rest): each 8x the one before on the fast connection.
        assertThat(client.calls(Operation.GET))
                .as("one ranged GET per range, one after the other, each 8x as long")
                .isEqualTo(3);
    }

    @Test
    void fastMeansAtLeastTheRateOfAFastConnection() {
        long fast = ReadPolicy.FAST_CONNECTION_BYTES_PER_SECOND;
        ReadPolicy policy = ReadPolicy.of(ReadSettings.builder().build());
        assertThat(policy.isFast(fast, 1_000_000_000L)).isTrue();
        assertThat(policy.isFast(fast - 1, 1_000_000_000L)).isFalse();
        assertThat(policy.isFast(8L << 20, 0)).isTrue();
        assertThat(policy.withFastConnection(Long.MAX_VALUE).isFast(8L << 20, 1))
                .isFalse();
    }

    @Test
    void objectWithinOneRangeNeverStartsReadAhead() throws IOException {
        byte[] source = store(CHUNK - 1);

        try (S3SeekableInputStream in = open()) {
            assertThat(readToEnd(in, new Random(8))).isEqualTo(source);
        }

        assertThat(client.calls(Operation.GET)).isEqualTo(1);
    }

    // ---------------------------------------------------------------- helpers

    private S3SeekableInputStream open() {
        return open(new ReadAheadBudget(Long.MAX_VALUE));
    }

    /**
     * A stream that takes every connection for a slow one, as it would on S3: the in-memory client answers
     * faster than any network, which would keep a sequential reader on one connection.
     */
    private S3SeekableInputStream open(ReadAheadBudget budget) {
        return new S3SeekableInputStream(client, LOCATION, settings, -1, budget, Long.MAX_VALUE);
    }

    /** GETs complete on the pool's threads from now on, as the SDK's do on the HTTP client's. */
    private void completingOnOtherThreads() {
        client = new InMemoryObjectClient(pool);
    }

    private byte[] store(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        client.store(LOCATION, bytes);
        return bytes;
    }
}
