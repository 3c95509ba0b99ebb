package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.RequestKind;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * A connection reset in the middle of a GET body is retried from the current position, and the
 * bytes returned are exactly the object's bytes (issue 2, read path). The filesystem talks to S3Proxy
 * through a TCP proxy that resets one connection halfway through the body.
 */
class ReadRetryAfterResetTest extends AbstractTcpProxiedFileSystemTest {

    private static final int SIZE = 6 * MIB;

    /** One GET covers the whole object, so the reset falls inside its body. */
    @Override
    protected Map<String, String> options() {
        return Map.of("s3.read.ahead-size", "16mb");
    }

    /** The object's size in bytes. */
    protected int objectBytes() {
        return SIZE;
    }

    /** Response bytes after which the first connection to carry that many is reset. */
    protected long resetAfterBytes() {
        return SIZE / 4;
    }

    @Test
    void resetHalfwayThroughABodyIsRetriedAndTheBytesAreExact() throws Exception {
        Path path = new Path(dir, "restored-state");
        byte[] data = randomBytes(objectBytes(), 21);
        s3.putObject(b -> b.bucket(target.bucket()).key(key(path)), RequestBody.fromBytes(data));
        proxy.resetOnceAfterResponseBytes(resetAfterBytes());

        byte[] read = readFully(path);

        assertThat(proxy.resets()).as("connections reset by the proxy").isEqualTo(1);
        assertThat(read).isEqualTo(data);
        assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                .filteredOn(r -> r.key().equals(key(path)))
                .as("GETs of the object: the first broke, a retry resumed")
                .hasSizeGreaterThanOrEqualTo(2);
    }
}
