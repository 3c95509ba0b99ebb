package dev.flinks3.transfer.sdk;

import dev.flinks3.it.S3TestTarget;
import dev.flinks3.it.SharedS3ProxyTarget;

/** {@link AbstractMultipartCopyTest} on the shared S3Proxy. */
class S3ProxyMultipartCopyTest extends AbstractMultipartCopyTest {

    @Override
    protected S3TestTarget target() {
        return SharedS3ProxyTarget.target();
    }
}
