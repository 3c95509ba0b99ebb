package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.ClientSettings;

/** {@link SdkObjectClient} on the AWS CRT HTTP client against S3Proxy. */
class CrtObjectClientTest extends SdkObjectClientS3ProxyTest {
    CrtObjectClientTest() {
        super(ClientSettings.HttpClientType.CRT);
    }
}
