package dev.flinks3.it.copy;

import dev.flinks3.it.CephRgw;
import dev.flinks3.it.S3TestTarget;

/** {@link AbstractStoreCopyTest} on the single-node Ceph RGW ({@link CephRgw}); skipped where none runs. */
class CephStoreCopyTest extends AbstractStoreCopyTest {

    @Override
    protected S3TestTarget target() {
        return CephRgw.target();
    }
}
