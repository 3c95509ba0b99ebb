package org.apache.flink.core.fs;

import dev.flinks3.it.SharedS3ProxyTarget;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Timeout;

/**
 * Flink's recoverable writer contract for {@code s3://} on the CRT-based S3 client ({@code s3.client:
 * crt}) against the embedded S3Proxy; it deviates in nothing beyond what the base class documents.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrtS3ClientS3RecoverableWriterTest extends AbstractS3RecoverableWriterContractTest {

    @Override
    protected String bucket() {
        return SharedS3ProxyTarget.bucket();
    }

    @Override
    protected Configuration flinkConfiguration() {
        Configuration configuration = SharedS3ProxyTarget.flinkConfiguration();
        configuration.setString("s3.client", "crt");
        return configuration;
    }
}
