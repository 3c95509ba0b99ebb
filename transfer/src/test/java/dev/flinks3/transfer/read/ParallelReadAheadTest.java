package dev.flinks3.transfer.read;

import static dev.flinks3.transfer.read.S3SeekableInputStreamTest.crc;
import static dev.flinks3.transfer.read.S3SeekableInputStreamTest.readN;
import static dev.flinks3.transfer.read.S3SeekableInputStreamTest.readToEnd;
import static dev.flinks3.transfer.read.S3SeekableInputStreamTest.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Parallel read-ahead of {@link S3SeekableInputStream} ({@link ParallelReadAhead}, {@link ReadAheadChunk}). */
class ParallelReadAheadTest {

    private static final int CHUNK = 64 * 1024;
    private static final int PARALLELISM = 4;
    private static final S3Location LOCATION = S3Location.of("s3", "bucket", "checkpoints/chk-7/state");

    private final InMemoryObjectClient client = new InMemoryObjectClient();
    private final S3Settings settings =
            S3Settings.builder().readAheadBytes(CHUNK).readAheadParallelism(PARALLELISM).build();
    private final QueuedExecutor queued = new QueuedExecutor();
    private final ExecutorService pool = Executors.newFixedThreadPool(PARALLELISM);

    @AfterEach
    void stopPool() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void startsOnlyWhenTheReaderGoesPastItsFirstRange() throws IOException {
        byte[] source = store(16 * CHUNK + 123);

        try (S3SeekableInputStream in = open(queued)) {
            assertThat(readN(in, CHUNK)).isEqualTo(slice(source, 0, CHUNK));
            assertThat(queued.size()).isZero();
            assertThat(client.calls(Operation.GET)).isEqualTo(1);

            assertThat(readN(in, 1)).isEqualTo(slice(source, CHUNK, 1));
            // The window's first chunk is fetched by the reader itself; the workers' tasks are queued.
            assertThat(queued.size()).isEqualTo(PARALLELISM);
            assertThat(client.calls(Operation.GET)).isEqualTo(2);
            queued.runAll();
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
        try (S3SeekableInputStream in = open(queued)) {
            while (true) {
                int n = in.read(read, done, Math.min(read.length - done, 1 + random.nextInt(CHUNK / 3)));
                if (n <= 0) {
                    break;
                }
                done += n;
                assertThat(in.readAheadBufferedBytes()).isLessThanOrEqualTo((long) PARALLELISM * CHUNK);
                assertThat(queued.size()).isLessThanOrEqualTo(PARALLELISM);
                queued.runAll();
            }
        }

        assertThat(done).isEqualTo(source.length);
        assertThat(read).isEqualTo(source);
        // One range of CHUNK bytes, then one GET per chunk, never one twice.
        assertThat(client.calls(Operation.GET)).isEqualTo(17);
        assertThat(client.openRangeStreams()).isZero();
    }

    @Test
    void sequentialReadOnWorkerThreadsReturnsTheObject() throws IOException {
        byte[] source = store(40 * CHUNK + 7);

        byte[] read;
        try (S3SeekableInputStream in = open(pool)) {
            read = readToEnd(in, new Random(9));
        }

        assertThat(crc(read)).isEqualTo(crc(source));
        assertThat(read).isEqualTo(source);
        assertThat(client.calls(Operation.GET)).isEqualTo(41);
    }

    @Test
    void mixedAccessNeverReturnsWrongBytes() throws IOException {
        byte[] source = store(3 * 1024 * 1024 + 999);
        Random random = new Random(42);
        int opsWithReadAhead = 0;

        try (S3SeekableInputStream in = open(pool)) {
            for (int op = 0; op < 3_000; op++) {
                int kind = random.nextInt(100);
                long pos = in.getPos();
                if (kind < 60) {
                    int len = 1 + random.nextInt(2 * CHUNK);
                    int expected = (int) Math.min(len, source.length - pos);
                    byte[] got = readN(in, len);
                    assertThat(got).as("op %d: read %d at %d", op, len, pos)
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
                    assertThat(got).as("op %d: positional read %d at %d", op, len, at)
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

        try (S3SeekableInputStream in = open(queued)) {
            for (int i = 0; i < 200; i++) {
                int at = random.nextInt(source.length - 16 * 1024);
                in.seek(at);
                assertThat(readN(in, 16 * 1024)).isEqualTo(slice(source, at, 16 * 1024));
            }
            assertThat(queued.size()).isZero();
            assertThat(in.readAheadBufferedBytes()).isZero();
        }
    }

    @Test
    void positionalReadsOnOtherThreadsWhileReadingSequentially() throws Exception {
        byte[] source = store(40 * CHUNK);
        ExecutorService readers = Executors.newFixedThreadPool(3);
        try (S3SeekableInputStream in = open(pool)) {
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
    void backwardSeekDropsTheWindowAndCancelsItsQueuedGets() throws IOException {
        byte[] source = store(16 * CHUNK);

        try (S3SeekableInputStream in = open(queued)) {
            readN(in, CHUNK + 10);
            assertThat(in.readAheadBufferedBytes()).isPositive();
            int getsBefore = client.calls(Operation.GET);

            in.seek(5);
            assertThat(readN(in, 100)).isEqualTo(slice(source, 5, 100));
            assertThat(in.readAheadBufferedBytes()).isZero();
            queued.runAll();
            // Only the new range: the cancelled chunks sent nothing.
            assertThat(client.calls(Operation.GET)).isEqualTo(getsBefore + 1);
        }
    }

    @Test
    void forwardSeekInsideTheWindowIsServedFromIt() throws IOException {
        byte[] source = store(16 * CHUNK);

        try (S3SeekableInputStream in = open(queued)) {
            readN(in, CHUNK + 10);
            queued.runAll();
            int gets = client.calls(Operation.GET);

            in.seek(CHUNK + 2 * CHUNK + 5);
            assertThat(readN(in, 100)).isEqualTo(slice(source, 3 * CHUNK + 5, 100));
            // The window slid by two chunks: two new GETs queued, none sent by the reader.
            assertThat(client.calls(Operation.GET)).isEqualTo(gets);
            assertThat(queued.size()).isEqualTo(2);
        }
    }

    @Test
    void closeReleasesBuffersAndSendsNoQueuedGet() throws IOException {
        byte[] source = store(16 * CHUNK);
        ParallelReadAhead readAhead =
                new ParallelReadAhead(client, LOCATION, 0, source.length, CHUNK, PARALLELISM, queued);
        queued.runOne();
        byte[] b = new byte[10];
        assertThat(readAhead.read(0, b, 0, 10)).isEqualTo(10);
        assertThat(b).isEqualTo(slice(source, 0, 10));
        assertThat(readAhead.bufferedBytes()).isEqualTo((long) PARALLELISM * CHUNK);

        readAhead.close();

        assertThat(readAhead.bufferedBytes()).isZero();
        assertThat(readAhead.covers(0)).isFalse();
        queued.runAll();
        assertThat(client.calls(Operation.GET)).isEqualTo(1);
        assertThat(client.openRangeStreams()).isZero();
    }

    @Test
    void readersShareTheProcessBudgetAndOneWithoutWindowsReadsOverOneConnection() throws IOException {
        byte[] source = store(16 * CHUNK);
        ReadAheadBudget budget = new ReadAheadBudget((PARALLELISM + 2L) * CHUNK);
        S3SeekableInputStream first = open(queued, budget);
        S3SeekableInputStream second = open(queued, budget);
        S3SeekableInputStream third = open(queued, budget);

        readN(first, CHUNK + 10);
        readN(second, CHUNK + 10);
        readN(third, CHUNK + 10);

        // The first reader took its full window, the second the two windows left, the third none.
        assertThat(budget.heldBytes()).isEqualTo((PARALLELISM + 2L) * CHUNK);
        assertThat(first.readAheadBufferedBytes()).isLessThanOrEqualTo((long) PARALLELISM * CHUNK);
        assertThat(second.readAheadBufferedBytes()).isLessThanOrEqualTo(2L * CHUNK);
        assertThat(third.readAheadBufferedBytes()).isZero();
        queued.runAll();
        byte[] rest = new byte[source.length - (CHUNK + 10)];
        for (S3SeekableInputStream in : new S3SeekableInputStream[] {first, second, third}) {
            int done = 0;
            while (done < rest.length) {
                int n = in.read(rest, done, rest.length - done);
                assertThat(n).isPositive();
                done += n;
                queued.runAll();
            }
            assertThat(rest).isEqualTo(java.util.Arrays.copyOfRange(source, CHUNK + 10, source.length));
            in.close();
        }
        assertThat(budget.heldBytes()).isZero();
    }

    @Test
    void closingTheStreamReleasesItsReadAhead() throws IOException {
        store(16 * CHUNK);
        S3SeekableInputStream in = open(queued);
        readN(in, CHUNK + 10);
        assertThat(in.readAheadBufferedBytes()).isPositive();

        in.close();

        assertThat(in.readAheadBufferedBytes()).isZero();
        queued.runAll();
        assertThat(client.calls(Operation.GET)).isEqualTo(2);
        assertThat(client.openRangeStreams()).isZero();
    }

    @Test
    void cancelledChunkAbortsOrSkipsItsGet() throws IOException {
        byte[] source = store(4 * CHUNK);
        ReadAheadChunk notStarted = new ReadAheadChunk(client, LOCATION, 0, CHUNK, source.length, new byte[CHUNK]);
        notStarted.cancel();
        notStarted.run();
        assertThat(client.calls(Operation.GET)).isZero();
        assertThatThrownBy(notStarted::await).isInstanceOf(InterruptedIOException.class);

        // The fault's error is raised inside the worker's GET; cancelling there is "close while in flight".
        ReadAheadChunk[] inFlight = new ReadAheadChunk[1];
        client.inject(Fault.on(Operation.GET).afterBytes(100).failingWith(() -> {
            inFlight[0].cancel();
            return new SocketException("Connection reset");
        }));
        inFlight[0] = new ReadAheadChunk(client, LOCATION, CHUNK, CHUNK, source.length, new byte[CHUNK]);
        inFlight[0].run();
        assertThatThrownBy(inFlight[0]::await).isInstanceOf(IOException.class);
        // Cancelled: the broken body was not re-requested.
        assertThat(client.calls(Operation.GET)).isEqualTo(1);
        assertThat(client.openRangeStreams()).isZero();
    }

    @Test
    void rejectedChunksAreFetchedByTheReader() throws IOException {
        byte[] source = store(10 * CHUNK + 1);

        byte[] read;
        try (S3SeekableInputStream in = open(task -> {
            throw new RejectedExecutionException("saturated");
        })) {
            read = readToEnd(in, new Random(2));
        }

        assertThat(read).isEqualTo(source);
        assertThat(client.calls(Operation.GET)).isEqualTo(11);
    }

    @Test
    void resetInsideAChunkIsRetriedFromWhereItBroke() throws IOException {
        byte[] source = store(20 * CHUNK);
        client.inject(Fault.on(Operation.GET).atCall(4).afterBytes(1_000)
                .failingWith(new SocketException("Connection reset")));

        byte[] read;
        try (S3SeekableInputStream in = open(pool)) {
            read = readToEnd(in, new Random(4));
        }

        assertThat(read).isEqualTo(source);
        assertThat(client.calls(Operation.GET)).isEqualTo(21);
    }

    @Test
    void objectDeletedDuringReadAheadIsFileNotFound() throws IOException {
        store(20 * CHUNK);

        try (S3SeekableInputStream in = open(queued)) {
            readN(in, CHUNK);
            client.delete(LOCATION);
            assertThatThrownBy(() -> readN(in, 10))
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessageContaining(LOCATION.toString());
        }
    }

    @Test
    void failedChunkReachesTheReaderWithItsCause() throws IOException {
        store(20 * CHUNK);
        client.inject(Fault.on(Operation.GET).when(call -> call.callNumber() > 1).always().failingWith(() ->
                new S3RequestException("GetObject", LOCATION.toString(), 403, "AccessDenied", null)));

        try (S3SeekableInputStream in = open(pool)) {
            readN(in, CHUNK);
            assertThatThrownBy(() -> readN(in, 10))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(LOCATION.toString())
                    .hasCauseInstanceOf(S3RequestException.class);
        }
    }

    @Test
    void objectWithinOneRangeNeverStartsReadAhead() throws IOException {
        byte[] source = store(CHUNK - 1);

        try (S3SeekableInputStream in = open(queued)) {
            assertThat(readToEnd(in, new Random(8))).isEqualTo(source);
        }

        assertThat(client.calls(Operation.GET)).isEqualTo(1);
        assertThat(queued.size()).isZero();
    }

    // ---------------------------------------------------------------- helpers

    private S3SeekableInputStream open(java.util.concurrent.Executor executor) {
        return open(executor, new ReadAheadBudget(Long.MAX_VALUE));
    }

    private S3SeekableInputStream open(java.util.concurrent.Executor executor, ReadAheadBudget budget) {
        return new S3SeekableInputStream(client, LOCATION, settings, -1, new ReadAheadWorkers(executor, budget));
    }

    private byte[] store(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        client.store(LOCATION, bytes);
        return bytes;
    }

    /** Holds tasks until the test runs them, so what is in flight is decided by the test. */
    private static final class QueuedExecutor implements java.util.concurrent.Executor {
        private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable task) {
            tasks.addLast(task);
        }

        synchronized int size() {
            return tasks.size();
        }

        void runOne() {
            Runnable task;
            synchronized (this) {
                task = tasks.pollFirst();
            }
            if (task != null) {
                task.run();
            }
        }

        void runAll() {
            while (size() > 0) {
                runOne();
            }
        }
    }
}
