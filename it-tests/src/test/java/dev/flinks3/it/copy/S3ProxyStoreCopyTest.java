package dev.flinks3.it.copy;

import dev.flinks3.it.S3TestTarget;
import dev.flinks3.it.SharedS3ProxyTarget;

/** {@link AbstractStoreCopyTest} on the shared S3Proxy. */
class S3ProxyStoreCopyTest extends AbstractStoreCopyTest {

    @Override
    protected S3TestTarget target() {
        return SharedS3ProxyTarget.target();
    }
}
