package dev.flinks3.transfer.sdk;

import dev.flinks3.it.CephRgw;
import java.net.URI;
import org.apache.flink.configuration.Configuration;

/** {@link AbstractMultipartCopyTest} on the single-node Ceph RGW ({@link CephRgw}); skipped where none runs. */
class CephMultipartCopyTest extends AbstractMultipartCopyTest {

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
