package dev.flinks3.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link AbstractS3ProxyFileSystemTest} whose filesystem talks to S3Proxy through a {@link
 * ResettingTcpProxy} ({@link #proxy}), which counts the connections open and can reset one mid-body;
 * the test's own S3 client goes to S3Proxy directly.
 */
abstract class AbstractTcpProxiedFileSystemTest extends AbstractS3ProxyFileSystemTest {

    /** The TCP proxy in front of S3Proxy that the filesystem's requests go through. */
    protected ResettingTcpProxy proxy;

    @BeforeAll
    @Override
    void createFileSystem() throws Exception {
        proxy = new ResettingTcpProxy(SharedS3Proxy.server().endpoint());
        super.createFileSystem();
    }

    @AfterAll
    void closeProxy() throws Exception {
        proxy.close();
    }

    @Override
    protected S3TestTarget filesystemTarget() {
        return target.via(proxy.endpoint());
    }
}
