package dev.flinks3.transfer.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.net.SocketException;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every byte {@link S3SeekableInputStream} returns, checked against the object, under a random mix of what
 * Flink's readers do to one stream: sequential reads into arrays and heap or direct buffers of any size,
 * single bytes, skips, seeks short and long, forward and backward, positional reads alone and in walks (as
 * RocksDB and ForSt read SST blocks), while other threads send positional reads and walks of their own on
 * the same stream. GETs complete on other threads, some bodies break mid-way, and the read-ahead budget is
 * small enough to run out. Each seed picks its own object size, read-ahead size and parallelism, so a
 * failing seed is a repeatable case.
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

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void everyReadReturnsTheObjectsBytesAtItsPosition(long seed) throws Exception {
        Random random = new Random(seed);
        InMemoryObjectClient client = new InMemoryObjectClient(completions);
        byte[] source = new byte[random.nextInt(3 * 1024 * KIB) + 1];
        random.nextBytes(source);
        client.store(LOCATION, source);
        AtomicInteger getCalls = new AtomicInteger();
        client.inject(Fault.on(Operation.GET)
                .when(call -> getCalls.incrementAndGet() % 7 == 0)
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

        try (S3SeekableInputStream in = new S3SeekableInputStream(client, LOCATION, settings, knownLength, budget)) {
            RandomReads.fromThreeThreads(in, source, seed, 400, 150, readers);
        }
        assertThat(budget.heldBytes()).as("read-ahead bytes held after close").isZero();
    }
}
