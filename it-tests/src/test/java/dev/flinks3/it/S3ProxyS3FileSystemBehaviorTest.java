package dev.flinks3.it;

/** Flink's filesystem contract for {@code s3://} against the embedded S3Proxy. */
class S3ProxyS3FileSystemBehaviorTest extends AbstractS3FileSystemBehaviorTest {

    @Override
    protected S3TestTarget target() {
        return SharedS3Proxy.target();
    }

    @Override
    protected String scheme() {
        return "s3";
    }
}
