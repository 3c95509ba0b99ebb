package dev.flinks3.it.copy;

import dev.flinks3.it.CephRgw;
import java.net.URI;
import org.apache.flink.configuration.Configuration;

/** {@link AbstractStoreCopyTest} on the single-node Ceph RGW ({@link CephRgw}); skipped where none runs. */
class CephStoreCopyTest extends AbstractStoreCopyTest {

    @Override
    protected URI endpoint() {
        return CephRgw.target().endpoint();
    }

    @Override
    protected Configuration serverConfiguration() {
        return CephRgw.flinkConfiguration();
    }

    @Override
    protected String bucket() {
        return CephRgw.bucket();
    }
}
