package dev.flinks3.transfer.sdk;

import dev.flinks3.it.SharedS3ProxyTarget;
import java.net.URI;
import org.apache.flink.configuration.Configuration;

/** {@link AbstractMultipartCopyTest} on the shared S3Proxy. */
class S3ProxyMultipartCopyTest extends AbstractMultipartCopyTest {

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
