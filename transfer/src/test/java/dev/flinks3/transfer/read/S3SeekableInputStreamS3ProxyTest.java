package dev.flinks3.transfer.read;

import static dev.flinks3.transfer.sdk.SdkObjectClientS3ProxyTest.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.sdk.S3ClientOwner;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link S3SeekableInputStream} over HTTP against S3Proxy, counted and checked at the server.
 *
 * <p>An object replaced by one of the same length while a stream reads it: every GET of a stream after
 * its first sends {@code If-Match} with the ETag the first one saw, the server answers 412, and the read
 * fails with an {@link ObjectChangedException}; no byte of the new version is handed out. The object is
 * replaced in the server's store between two ranged GETs.
 *
 * <p>A reader that skips a few KiB forward between small reads sends as few GETs as one reading
 * straight through.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class S3SeekableInputStreamS3ProxyTest {

    private static final String BUCKET = "replaced-object";
    private static final int MIB = 1024 * 1024;

    private static EmbeddedS3Server server;
    private static final AtomicInteger KEYS = new AtomicInteger();

    @BeforeAll
    static void start() {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @ParameterizedTest
    @EnumSource(ClientSettings.HttpClientType.class)
    void theNextRangeOfAReplacedObjectFailsInsteadOfMixingVersions(ClientSettings.HttpClientType http)
            throws IOException {
        try (S3ClientOwner owner = owner(http)) {
            ObjectClient client = owner.objectClient();
            S3Location location = newLocation();
            byte[] original = randomBytes(3 * MIB);
            String eTag = client.put(location, ByteBuffer.wrap(original), WriteCondition.NONE)
                    .join();
            ReadSettings settings = ReadSettings.builder()
                    .readAheadBytes(MIB)
                    .readAheadParallelism(1)
                    .build();
            server.requestLog().clear();
            try (S3SeekableInputStream in = new S3SeekableInputStream(client, location, settings, -1)) {
                byte[] first = in.readNBytes(MIB);
                assertThat(first).isEqualTo(Arrays.copyOf(original, MIB));

                replace(location, original.length);

                byte[] rest = new byte[MIB];
                assertThatThrownBy(() -> in.readNBytes(rest, 0, rest.length))
                        .isInstanceOf(ObjectChangedException.class)
                        .hasMessageContaining(location.toString())
                        .hasMessageContaining("changed while it was read");
                assertThat(rest).as("no byte of the new version").containsOnly(0);
            }
            List<RequestRecord> gets = server.requestLog().entries(RequestKind.GET_OBJECT);
            assertThat(gets).hasSizeGreaterThanOrEqualTo(2);
            assertThat(gets.get(0).header("if-match")).isEmpty();
            assertThat(gets.subList(1, gets.size()))
                    .allSatisfy(get -> assertThat(get.header("if-match")).contains(eTag));
        }
    }

    @ParameterizedTest
    @EnumSource(ClientSettings.HttpClientType.class)
    void theParallelReadAheadOfAReplacedObjectFails(ClientSettings.HttpClientType http) throws IOException {
        try (S3ClientOwner owner = owner(http)) {
            ObjectClient client = owner.objectClient();
            S3Location location = newLocation();
            byte[] original = randomBytes(4 * MIB);
            String eTag = client.put(location, ByteBuffer.wrap(original), WriteCondition.NONE)
                    .join();
            ReadSettings settings = ReadSettings.builder()
                    .readAheadBytes(MIB)
                    .readAheadParallelism(3)
                    .build();
            server.requestLog().clear();
            try (S3SeekableInputStream in = new S3SeekableInputStream(
                    client, location, settings, original.length, new ReadAheadBudget(64L * MIB))) {
                assertThat(in.readNBytes(MIB)).isEqualTo(Arrays.copyOf(original, MIB));

                replace(location, original.length);

                assertThatThrownBy(() -> in.readNBytes(MIB)).isInstanceOf(ObjectChangedException.class);
            }
            List<RequestRecord> gets = server.requestLog().entries(RequestKind.GET_OBJECT);
            assertThat(gets).hasSizeGreaterThanOrEqualTo(2);
            assertThat(gets.subList(1, gets.size()))
                    .allSatisfy(get -> assertThat(get.header("if-match")).contains(eTag));
        }
    }

    @ParameterizedTest
    @EnumSource(ClientSettings.HttpClientType.class)
    void aPositionalReadOfAReplacedObjectFails(ClientSettings.HttpClientType http) throws IOException {
        try (S3ClientOwner owner = owner(http)) {
            ObjectClient client = owner.objectClient();
            S3Location location = newLocation();
            byte[] original = randomBytes(2 * MIB);
            String eTag = client.put(location, ByteBuffer.wrap(original), WriteCondition.NONE)
                    .join();
            server.requestLog().clear();
            try (S3SeekableInputStream in = new S3SeekableInputStream(
                    client, location, ReadSettings.builder().build(), original.length)) {
                byte[] block = new byte[16 * 1024];
                in.readFully(MIB, block, 0, block.length);
                assertThat(block).isEqualTo(Arrays.copyOfRange(original, MIB, MIB + block.length));

                replace(location, original.length);

                ByteBuffer next = ByteBuffer.allocateDirect(block.length);
                assertThatThrownBy(() -> in.readFully(0, next))
                        .isInstanceOf(ObjectChangedException.class)
                        .hasMessageContaining(location.toString());
                assertThatThrownBy(() -> in.read(new byte[10]))
                        .as("the sequential path of the same stream")
                        .isInstanceOf(ObjectChangedException.class);
            }
            List<RequestRecord> gets = server.requestLog().entries(RequestKind.GET_OBJECT);
            // The two GETs after the replacement are sent directly first; their 412 is asked again through the
            // SDK's pipeline, whose answer the reader gets.
            assertThat(gets).hasSize(5);
            assertThat(gets.get(0).header("if-match")).isEmpty();
            assertThat(gets.subList(1, gets.size()))
                    .allSatisfy(get -> assertThat(get.header("if-match")).contains(eTag));
        }
    }

    @ParameterizedTest
    @EnumSource(ClientSettings.HttpClientType.class)
    void aReaderSkippingAFewKibForwardSendsNoMoreGetsThanOneReadingStraightThrough(ClientSettings.HttpClientType http)
            throws IOException {
        try (S3ClientOwner owner = owner(http)) {
            ObjectClient client = owner.objectClient();
            S3Location location = newLocation();
            byte[] data = randomBytes(8 * MIB);
            client.put(location, ByteBuffer.wrap(data), WriteCondition.NONE).join();
            ReadSettings settings = ReadSettings.builder()
                    .readAheadBytes(MIB)
                    .readAheadParallelism(1)
                    .build();

            // Both readers keep 1 MiB ranges: no connection counts as fast (Long.MAX_VALUE), so the count does
            // not depend on how fast this machine serves a range.
            server.requestLog().clear();
            try (S3SeekableInputStream in =
                    new S3SeekableInputStream(client, location, settings, data.length, null, Long.MAX_VALUE)) {
                assertThat(in.readAllBytes()).isEqualTo(data);
            }
            long straight = server.requestLog().count(RequestKind.GET_OBJECT);

            server.requestLog().clear();
            int read = 4 * 1024;
            int skip = 6 * 1024;
            byte[] block = new byte[read];
            try (S3SeekableInputStream in =
                    new S3SeekableInputStream(client, location, settings, data.length, null, Long.MAX_VALUE)) {
                for (long at = 0; at + read <= data.length; at += read + skip) {
                    in.seek(at);
                    assertThat(in.readNBytes(block, 0, read)).isEqualTo(read);
                    assertThat(block).isEqualTo(Arrays.copyOfRange(data, (int) at, (int) at + read));
                }
            }
            long skipping = server.requestLog().count(RequestKind.GET_OBJECT);

            assertThat(straight).isEqualTo(8);
            assertThat(skipping).isLessThanOrEqualTo(straight);
        }
    }

    /**
     * An SST iterator's scan as ForSt reads it: 2,048 positional reads of 16 KiB into a direct buffer, each where the
     * one before ended, counted at the server: at most 8 GETs (the first two exact, then the walk's streamed ranges).
     */
    @ParameterizedTest
    @EnumSource(ClientSettings.HttpClientType.class)
    void aScanOf2048PositionalReadsIsAtMostEightGetsAtTheServer(ClientSettings.HttpClientType http) throws IOException {
        try (S3ClientOwner owner = owner(http)) {
            ObjectClient client = owner.objectClient();
            S3Location location = newLocation();
            int block = 16 * 1024;
            byte[] data = randomBytes(2048 * block);
            client.put(location, ByteBuffer.wrap(data), WriteCondition.NONE).join();
            server.requestLog().clear();

            // Every connection counts as fast (a LAN), so the count does not depend on this machine's load.
            try (S3SeekableInputStream in = new S3SeekableInputStream(
                    client, location, ReadSettings.builder().build(), data.length, new ReadAheadBudget(64L * MIB), 1)) {
                ByteBuffer buffer = ByteBuffer.allocateDirect(block);
                byte[] read = new byte[block];
                for (int i = 0; i < 2048; i++) {
                    buffer.clear();
                    in.readFully((long) i * block, buffer);
                    buffer.flip().get(read);
                    assertThat(read).isEqualTo(Arrays.copyOfRange(data, i * block, (i + 1) * block));
                }
            }

            assertThat(server.requestLog().count(RequestKind.GET_OBJECT)).isBetween(3L, 8L);
        }
    }

    /** Stores other bytes of the same length at the location, in the server's store, without a request. */
    private static void replace(S3Location location, int length) {
        byte[] other = new byte[length];
        new Random(KEYS.incrementAndGet()).nextBytes(other);
        server.putObjectDirectly(location.bucket(), location.key(), other);
    }

    private static S3ClientOwner owner(ClientSettings.HttpClientType http) {
        return new S3ClientOwner(TestSettings.forServer(server, http).build());
    }

    private static S3Location newLocation() {
        return S3Location.of("s3", BUCKET, "replaced/" + KEYS.incrementAndGet());
    }
}
