package dev.flinks3.it;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Timeout;

/**
 * Flink's filesystem contract for {@code s3://} on the CRT-based S3 client ({@code s3.client: crt})
 * against the embedded S3Proxy; nothing of the suite is overridden.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrtS3ClientS3FileSystemBehaviorTest extends AbstractS3FileSystemBehaviorTest {

    @Override
    protected S3TestTarget target() {
        return SharedS3Proxy.target();
    }

    @Override
    protected Configuration flinkConfiguration() {
        return target().flinkConfiguration(Map.of("s3.client", "crt"));
    }

    @Override
    protected String scheme() {
        return "s3";
    }
}
