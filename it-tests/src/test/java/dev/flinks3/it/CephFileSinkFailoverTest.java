package dev.flinks3.it;

/**
 * The exactly-once {@code FileSink} under failover against the Ceph RGW 16.2 of {@link CephRgw}, with
 * default settings. Deviation: the test cannot see RGW's requests, so it does not assert that recoveries
 * resumed uploads with parts and took tails back (the S3Proxy run asserts that about the same job); every
 * record exactly once, nothing left behind and no pending upload are asserted as there.
 */
class CephFileSinkFailoverTest extends AbstractFileSinkFailoverTest {

    @Override
    protected S3TestTarget target() {
        return CephRgw.target();
    }
}
