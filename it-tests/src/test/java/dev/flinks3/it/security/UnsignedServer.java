package dev.flinks3.it.security;

import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.it.faults.FaultInjectingProxy;
import dev.flinks3.testserver.EmbeddedS3Server;

/**
 * An S3Proxy that checks no signature, behind a {@link FaultInjectingProxy} that records every request
 * and strips the server-side encryption headers S3Proxy 4.1.0 answers with 501: the filesystem can
 * then run with any SSE setting, any secret key and any session token, and the proxy's record shows
 * what it sent. Close after use.
 */
final class UnsignedServer implements AutoCloseable {

    static final String SSE_HEADERS = "x-amz-server-side-encryption";
    static final String COPY_SOURCE_SSE_HEADERS = "x-amz-copy-source-server-side-encryption";

    final EmbeddedS3Server server;
    final FaultInjectingProxy proxy;

    UnsignedServer() {
        server = EmbeddedS3Server.builder()
                .authenticate(false)
                .verifyTrailingChecksums(true)
                .bucket(SharedS3ProxyTarget.bucket())
                .start();
        proxy = new FaultInjectingProxy(server.endpoint());
        proxy.stripHeaders(SSE_HEADERS);
        proxy.stripHeaders(COPY_SOURCE_SSE_HEADERS);
    }

    @Override
    public void close() throws Exception {
        try (EmbeddedS3Server stopping = server) {
            proxy.close();
        }
    }
}
