package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.ClientSettings;

/** {@link SdkObjectClient} on the Netty HTTP client against S3Proxy. */
class NettyObjectClientTest extends SdkObjectClientS3ProxyTest {
    NettyObjectClientTest() {
        super(ClientSettings.HttpClientType.NETTY);
    }
}
