package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.fs.S3FileSystemSettings;
import dev.flinks3.it.S3TestTarget;
import dev.flinks3.it.faults.Fault;
import dev.flinks3.it.faults.FaultInjectingProxy;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Multipart copies (UploadPartCopy in parallel parts, above a threshold lowered to 6 MiB here) on a real server,
 * through a {@link FaultInjectingProxy}: exact bytes, and a source replaced while its parts are copied fails the copy
 * (412) and leaves neither a target nor an upload, whether the store refuses the stale parts ({@code
 * x-amz-copy-source-if-match}, S3) or copies them anyway (Ceph RGW 16.2 ignores that header: the HEAD after the
 * copy catches it). One subclass per server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class AbstractMultipartCopyTest {

    private static final int MIB = 1024 * 1024;

    private FaultInjectingProxy proxy;
    private S3ClientOwner owner;
    private ObjectClient client;
    private String prefix;

    /** The server: its endpoint, keys, region and bucket. */
    protected abstract S3TestTarget target();

    private URI endpoint() {
        return target().endpoint();
    }

    private Configuration serverConfiguration() {
        return target().flinkConfiguration();
    }

    private String bucket() {
        return target().bucket();
    }

    @BeforeAll
    void start() {
        proxy = new FaultInjectingProxy(endpoint());
        Configuration configuration = new Configuration(serverConfiguration());
        configuration.setString("s3.endpoint", proxy.endpoint().toString());
        owner = new S3ClientOwner(
                S3FileSystemSettings.fromConfiguration(configuration).s3(), 6L * MIB, UploadSettings.MIN_PART_SIZE);
        client = owner.objectClient();
        prefix = getClass().getSimpleName() + "/" + UUID.randomUUID() + "/";
    }

    @AfterAll
    void stop() throws Exception {
        if (proxy != null) {
            try {
                for (var object :
                        client.list(bucket(), prefix, null, null, 1000).objects()) {
                    client.delete(S3Location.of("s3", bucket(), object.key()));
                }
            } finally {
                owner.close();
                proxy.close();
            }
        }
    }

    @Test
    void aLargeObjectIsCopiedInParallelPartsExactly() throws IOException {
        S3Location source = location("source");
        byte[] data = bytes(16 * MIB + 7, 1);
        put(source, data);
        S3Location target = location("target");
        proxy.clearRecorded();

        Futures.await(client.copy(source, target, data.length), "copy", source);

        assertThat(proxy.count(RequestKind.UPLOAD_PART_COPY)).isEqualTo(4);
        assertThat(proxy.count(RequestKind.GET_OBJECT)).isZero();
        assertThat(read(target, data.length)).isEqualTo(data);
        assertThat(client.listMultipartUploads(bucket(), prefix)).isEmpty();
    }

    @Test
    void aSourceReplacedWhileItsPartsAreCopiedFailsTheCopyAndLeavesNothing() throws Exception {
        S3Location source = location("changing");
        put(source, bytes(11 * MIB + 5, 2));
        S3Location target = location("changing-target");
        proxy.clearRecorded();
        // The last part's answer is held back; the source is replaced meanwhile.
        proxy.failNext(RequestKind.UPLOAD_PART_COPY, 1, Fault.delayFirstByte(Duration.ofSeconds(2)));

        CompletableFuture<Void> copying = client.copy(source, target, 11 * MIB + 5);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> proxy.count(RequestKind.UPLOAD_PART_COPY) == 3);
        put(source, bytes(11 * MIB + 5, 3));

        assertThatThrownBy(() -> Futures.await(copying, "copy", source))
                .isInstanceOf(S3RequestException.class)
                .satisfies(
                        e -> assertThat(((S3RequestException) e).statusCode()).isEqualTo(412));
        assertThat(client.listMultipartUploads(bucket(), prefix)).isEmpty();
        assertThatThrownBy(() -> client.head(target)).isInstanceOf(FileNotFoundException.class);
    }

    private void put(S3Location location, byte[] data) throws IOException {
        Futures.await(client.put(location, ByteBuffer.wrap(data), WriteCondition.NONE), "put", location);
    }

    private byte[] read(S3Location location, int length) throws IOException {
        try (InputStream in = client.get(location, 0, length)) {
            return in.readAllBytes();
        }
    }

    private S3Location location(String name) {
        return S3Location.of("s3", bucket(), prefix + name);
    }

    private static byte[] bytes(int length, int seed) {
        byte[] data = new byte[length];
        new Random(seed * 31L + length).nextBytes(data);
        return data;
    }
}
