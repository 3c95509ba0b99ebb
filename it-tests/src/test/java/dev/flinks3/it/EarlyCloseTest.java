package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * A stream closed long before the end of its range drops the range's connection instead of reading the
 * rest of the body, on the blocking HTTP client that streams long ranges too: the server stops sending
 * and the pool does not keep a connection that would first have to carry megabytes nobody wants. Seen at a
 * TCP proxy in front of S3Proxy, which counts the connections open.
 */
@Timeout(120)
class EarlyCloseTest extends AbstractTcpProxiedFileSystemTest {

    private static final int SIZE = 24 * MIB;

    /** One range of 16 MiB from the start: streamed on the blocking client. */
    @Override
    protected Map<String, String> options() {
        return Map.of("s3.read.ahead-size", "16mb");
    }

    @Test
    void aStreamClosedEarlyDropsItsConnection() throws Exception {
        Path path = new Path(dir, "long");
        byte[] data = randomBytes(SIZE, 5);
        s3.putObject(b -> b.bucket(target.bucket()).key(key(path)), RequestBody.fromBytes(data));

        // Pooled connections of earlier requests of this filesystem, if any, stay open.
        int before = proxy.openConnections();
        byte[] head = new byte[100_000];
        try (InputStream in = fs.open(path)) {
            int done = 0;
            while (done < head.length) {
                done += in.read(head, done, head.length - done);
            }
            assertThat(proxy.openConnections())
                    .as("the range's connection while it is read")
                    .isEqualTo(before + 1);
        }

        assertThat(Arrays.equals(head, Arrays.copyOf(data, head.length))).isTrue();
        await().atMost(Duration.ofSeconds(10))
                .alias("the connection of the abandoned range is closed, not drained and pooled")
                .until(() -> proxy.openConnections() == before);
    }
}
