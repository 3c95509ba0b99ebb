package dev.flinks3.transfer.sdk;

import dev.flinks3.it.CephRgw;
import dev.flinks3.it.S3TestTarget;

/** {@link AbstractMultipartCopyTest} on the single-node Ceph RGW ({@link CephRgw}); skipped where none runs. */
class CephMultipartCopyTest extends AbstractMultipartCopyTest {

    @Override
    protected S3TestTarget target() {
        return CephRgw.target();
    }
}
