package org.apache.flink.core.fs;

import dev.flinks3.it.SharedS3ProxyTarget;
import org.apache.flink.configuration.Configuration;

/**
 * Flink's recoverable writer contract for {@code s3://} against the embedded S3Proxy.
 */
class S3ProxyS3RecoverableWriterTest extends AbstractS3RecoverableWriterContractTest {

    @Override
    protected String bucket() {
        return SharedS3ProxyTarget.bucket();
    }

    @Override
    protected Configuration flinkConfiguration() {
        return SharedS3ProxyTarget.flinkConfiguration();
    }
}
