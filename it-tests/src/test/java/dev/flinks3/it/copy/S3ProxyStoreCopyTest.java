package dev.flinks3.it.copy;

import dev.flinks3.it.SharedS3ProxyTarget;
import java.net.URI;
import org.apache.flink.configuration.Configuration;

/** {@link AbstractStoreCopyTest} on the shared S3Proxy. */
class S3ProxyStoreCopyTest extends AbstractStoreCopyTest {

    @Override
    protected URI endpoint() {
        return SharedS3ProxyTarget.server().endpoint();
    }

    @Override
    protected Configuration serverConfiguration() {
        return SharedS3ProxyTarget.flinkConfiguration();
    }

    @Override
    protected String bucket() {
        return SharedS3ProxyTarget.bucket();
    }
}
