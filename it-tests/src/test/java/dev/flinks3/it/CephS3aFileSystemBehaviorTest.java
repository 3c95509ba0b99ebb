package dev.flinks3.it;

import org.junit.jupiter.api.Timeout;

/**
 * Flink's filesystem contract for {@code s3a://} against the Ceph RGW 16.2 of {@link CephRgw}, with default
 * settings (endpoint, keys and path style only). Nothing of the suite deviates.
 */
@Timeout(120)
class CephS3aFileSystemBehaviorTest extends AbstractS3FileSystemBehaviorTest {

    @Override
    protected S3TestTarget target() {
        return CephRgw.target();
    }

    @Override
    protected String scheme() {
        return "s3a";
    }
}
