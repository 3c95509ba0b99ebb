package dev.flinks3.transfer.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every byte {@link S3SeekableInputStream} returns, checked against the object, under a random mix of what
 * Flink's readers do to one stream: sequential reads into arrays and heap or direct buffers of any size,
 * single bytes, skips, seeks short and long, forward and backward, positional reads alone and in walks (as
 * RocksDB and ForSt read SST blocks), while other threads send positional reads and walks of their own on
 * the same stream. GETs complete on other threads, some bodies break mid-way, and the read-ahead budget is
 * small enough to run out. Each seed picks its own object size, read-ahead size and parallelism, so a
 * failing seed is a repeatable case; each runs twice, once with every connection taken as fast (a sequential
 * reader stays on one connection, its ranges growing) and once as slow (every full range starts the parallel
 * read-ahead), since an in-memory client's speed would otherwise decide which path a seed takes.
 *
 * <p>Apart from the mix, whole objects are copied the way ForSt's file cache loads a file on restore: several
 * streams at once, each opened and read to its end in 64 KiB reads, sharing one small read-ahead budget.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class S3SeekableInputStreamRandomizedTest {

    private static final S3Location LOCATION = S3Location.of("s3", "bucket", "db/000017.sst");
    private static final int KIB = 1024;

    private final ExecutorService completions = Executors.newFixedThreadPool(3);
    private final ExecutorService readers = Executors.newFixedThreadPool(3);

    @AfterEach
    void stopThreads() {
        readers.shutdownNow();
        completions.shutdownNow();
    }

    /** Seeds 1 to 12, each with connections taken as fast (rate 0) and as slow ({@link Long#MAX_VALUE}). */
    static Stream<Arguments> seedsAndConnections() {
        return LongStream.rangeClosed(1, 12)
                .boxed()
                .flatMap(seed -> Stream.of(Arguments.of(seed, 0L), Arguments.of(seed, Long.MAX_VALUE)));
    }

    @ParameterizedTest(name = "seed {0}, fast from {1} bytes/s")
    @MethodSource("seedsAndConnections")
    void everyReadReturnsTheObjectsBytesAtItsPosition(long seed, long fastConnectionBytesPerSecond) throws Exception {
        Random random = new Random(seed);
        InMemoryObjectClient client = new InMemoryObjectClient(completions);
        byte[] source = new byte[random.nextInt(3 * 1024 * KIB) + 1];
        random.nextBytes(source);
        client.store(LOCATION, source);
        // Every 7th GET breaks mid-body, but never a third time for the ranges ending at one byte: a range's GETs
        // (the first and those resuming it) all share its end, and a range gets three, so however the threads
        // interleave, no range runs out of GETs.
        AtomicInteger getCalls = new AtomicInteger();
        Map<Long, AtomicInteger> breaksPerRangeEnd = new ConcurrentHashMap<>();
        client.inject(Fault.on(Operation.GET)
                .when(call -> getCalls.incrementAndGet() % 7 == 0
                        && breaksPerRangeEnd
                                        .computeIfAbsent(call.rangeEnd(), any -> new AtomicInteger())
                                        .incrementAndGet()
                                <= 2)
                .afterBytes(random.nextInt(20_000))
                .times(20)
                .failingWith(() -> new SocketException("Connection reset")));
        ReadSettings settings = ReadSettings.builder()
                .readAheadBytes((64L << random.nextInt(5)) * KIB)
                .readAheadParallelism(1 + random.nextInt(4))
                .directGetsEnabled(random.nextBoolean())
                .build();
        ReadAheadBudget budget = new ReadAheadBudget((256L << random.nextInt(4)) * KIB);
        long knownLength = random.nextBoolean() ? source.length : -1;

        try (S3SeekableInputStream in = new S3SeekableInputStream(
                client, LOCATION, settings, knownLength, budget, fastConnectionBytesPerSecond)) {
            RandomReads.fromThreeThreads(in, source, seed, 400, 150, readers);
        }
        assertThat(budget.heldBytes()).as("read-ahead bytes held after close").isZero();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void wholeObjectsCopiedAtOnceInSmallReadsAreTheirBytes(long seed) throws Exception {
        Random random = new Random(seed);
        InMemoryObjectClient client = new InMemoryObjectClient(completions);
        int streams = 2 + random.nextInt(3);
        List<byte[]> sources = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            byte[] source = new byte[1024 * KIB + random.nextInt(2 * 1024 * KIB)];
            random.nextBytes(source);
            client.store(location(i), source);
            sources.add(source);
        }
        // Each object's 2nd and 5th GET break mid-body (an object of 1 MiB or more takes at least two GETs of at most
        // 512 KiB): two breaks per object, so no range runs out of its three GETs, whichever ranges they hit.
        Map<S3Location, AtomicInteger> getsPerObject = new ConcurrentHashMap<>();
        AtomicInteger breaks = new AtomicInteger();
        client.inject(Fault.on(Operation.GET)
                .when(call -> {
                    int n = getsPerObject
                            .computeIfAbsent(call.location(), any -> new AtomicInteger())
                            .incrementAndGet();
                    boolean strike = n == 2 || n == 5;
                    if (strike) {
                        breaks.incrementAndGet();
                    }
                    return strike;
                })
                .afterBytes(random.nextInt(40_000))
                .always()
                .failingWith(() -> new SocketException("Connection reset")));
        ReadSettings settings = ReadSettings.builder()
                .readAheadBytes((64L << random.nextInt(4)) * KIB)
                .readAheadParallelism(2 + random.nextInt(3))
                .directGetsEnabled(random.nextBoolean())
                .build();
        ReadAheadBudget budget = new ReadAheadBudget((256L << random.nextInt(3)) * KIB);
        ExecutorService copiers = Executors.newFixedThreadPool(streams);
        try {
            List<Future<byte[]>> copies = new ArrayList<>();
            for (int i = 0; i < streams; i++) {
                int object = i;
                long knownLength = random.nextBoolean() ? sources.get(i).length : -1;
                copies.add(copiers.submit(() -> copy(client, location(object), settings, knownLength, budget)));
            }
            for (int i = 0; i < streams; i++) {
                byte[] copy = copies.get(i).get(100, TimeUnit.SECONDS);
                assertThat(copy.length)
                        .as("length of the copy of %s", location(i))
                        .isEqualTo(sources.get(i).length);
                assertThat(Arrays.mismatch(copy, sources.get(i)))
                        .as("first wrong byte of the copy of %s", location(i))
                        .isEqualTo(-1);
            }
        } finally {
            copiers.shutdownNow();
        }
        assertThat(budget.heldBytes()).as("read-ahead bytes held after close").isZero();
        assertThat(breaks.get()).as("GET bodies broken mid-way").isPositive();
    }

    private static S3Location location(int object) {
        return S3Location.of("s3", "bucket", "db/" + (100 + object) + ".sst");
    }

    /** Reads the whole object in reads of at most 64 KiB, as ForSt's file cache copies a file, every connection slow. */
    private static byte[] copy(
            InMemoryObjectClient client,
            S3Location location,
            ReadSettings settings,
            long knownLength,
            ReadAheadBudget budget)
            throws Exception {
        try (S3SeekableInputStream in =
                new S3SeekableInputStream(client, location, settings, knownLength, budget, Long.MAX_VALUE)) {
            long length = in.length();
            byte[] copy = new byte[Math.toIntExact(length)];
            byte[] buffer = new byte[64 * KIB];
            int done = 0;
            while (done < length) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, length - done));
                if (n < 0) {
                    break;
                }
                System.arraycopy(buffer, 0, copy, done, n);
                done += n;
            }
            return done == length ? copy : Arrays.copyOf(copy, done);
        }
    }
}
