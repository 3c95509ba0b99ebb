package dev.flinks3.it;

import dev.flinks3.testserver.RequestLog;
import java.util.Map;
import java.util.Optional;

/** The exactly-once {@code FileSink} under failover on the CRT-based S3 client, against the embedded S3Proxy. */
class CrtS3ClientFileSinkFailoverTest extends AbstractFileSinkFailoverTest {

    @Override
    protected S3TestTarget target() {
        return SharedS3Proxy.target();
    }

    @Override
    protected Map<String, String> extraConfiguration() {
        return Map.of("s3.client", "crt");
    }

    @Override
    protected Optional<RequestLog> requestLog() {
        return Optional.of(SharedS3Proxy.server().requestLog());
    }
}
