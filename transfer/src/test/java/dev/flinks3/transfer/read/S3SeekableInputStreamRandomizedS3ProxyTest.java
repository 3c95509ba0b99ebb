package dev.flinks3.transfer.read;

import static dev.flinks3.transfer.sdk.SdkObjectClientS3ProxyTest.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.FaultProfile;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.sdk.S3ClientOwner;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The random mix of {@link RandomReads} over HTTP, with the SDK's client on either HTTP client and the GET
 * bodies delivered straight into the caller's buffers or not, against S3Proxy that answers some requests with
 * errors and closes some connections half-way through a body: every byte read is checked against the object.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class S3SeekableInputStreamRandomizedS3ProxyTest {

    private static final String BUCKET = "random-reads";

    private static EmbeddedS3Server server;

    @BeforeAll
    static void start() {
        server = EmbeddedS3Server.builder()
                .bucket(BUCKET)
                .faultProfile(FaultProfile.of(0.01).withMidBodyResets(0.03))
                .start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /**
     * The last column is the rate from which a connection counts as fast: the plugin's (a connection to this
     * server is fast, so sequential readers stay on one connection), or never, so every full range starts the
     * parallel read-ahead over HTTP.
     */
    @ParameterizedTest(name = "{0}, direct GETs {1}, seed {2}, fast from {3} bytes/s")
    @CsvSource({
        "NETTY,true,1,200000000",
        "NETTY,false,2,200000000",
        "CRT,true,3,200000000",
        "CRT,false,4,200000000",
        "NETTY,true,5,9223372036854775807",
        "CRT,false,6,9223372036854775807"
    })
    void everyReadOverHttpReturnsTheObjectsBytesAtItsPosition(
            ClientSettings.HttpClientType http, boolean directGets, long seed, long fastConnectionBytesPerSecond)
            throws Exception {
        Random random = new Random(seed);
        ExecutorService readers = Executors.newFixedThreadPool(2);
        try (S3ClientOwner owner =
                new S3ClientOwner(TestSettings.forServer(server, http).build())) {
            ObjectClient client = owner.objectClient();
            S3Location location = S3Location.of("s3", BUCKET, "db/" + http + "-" + seed + ".sst");
            byte[] source = randomBytes(1024 * 1024 + random.nextInt(2 * 1024 * 1024));
            client.put(location, ByteBuffer.wrap(source), WriteCondition.NONE).join();
            ReadSettings settings = ReadSettings.builder()
                    .readAheadBytes((64L << random.nextInt(5)) * 1024)
                    .readAheadParallelism(1 + random.nextInt(4))
                    .directGetsEnabled(directGets)
                    .build();
            ReadAheadBudget budget = new ReadAheadBudget(1024L * 1024);
            long resetsBefore = server.injectedFaults().midBodyResets();
            try (S3SeekableInputStream in =
                    new S3SeekableInputStream(client, location, settings, -1, budget, fastConnectionBytesPerSecond)) {
                RandomReads.fromThreeThreads(in, source, seed, 150, 60, readers);
            }
            assertThat(budget.heldBytes())
                    .as("read-ahead bytes held after close")
                    .isZero();
            assertThat(server.injectedFaults().midBodyResets())
                    .as("bodies the server broke off while this stream read")
                    .isGreaterThan(resetsBefore);
        } finally {
            readers.shutdownNow();
        }
    }
}
