package org.apache.flink.core.fs;

import dev.flinks3.it.CephRgw;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Timeout;

/**
 * Flink's recoverable writer contract for {@code s3://} against the Ceph RGW 16.2 of {@link CephRgw}, with default settings (endpoint, keys
 * and path style only); it deviates in nothing beyond what the base class documents.
 */
@Timeout(120)
class CephS3RecoverableWriterTest extends AbstractS3RecoverableWriterContractTest {

    @Override
    protected String bucket() {
        return CephRgw.bucket();
    }

    @Override
    protected Configuration flinkConfiguration() {
        return CephRgw.flinkConfiguration();
    }
}
