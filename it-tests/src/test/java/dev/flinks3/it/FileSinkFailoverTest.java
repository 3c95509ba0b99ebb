package dev.flinks3.it;

import dev.flinks3.testserver.RequestLog;
import java.util.Optional;

/** The exactly-once {@code FileSink} under failover against the embedded S3Proxy, with its request log. */
class FileSinkFailoverTest extends AbstractFileSinkFailoverTest {

    @Override
    protected S3TestTarget target() {
        return SharedS3Proxy.target();
    }

    @Override
    protected Optional<RequestLog> requestLog() {
        return Optional.of(SharedS3Proxy.server().requestLog());
    }
}
