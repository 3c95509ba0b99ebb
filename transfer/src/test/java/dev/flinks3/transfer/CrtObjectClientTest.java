package dev.flinks3.transfer;

/** {@link SdkObjectClient} on the AWS CRT HTTP client against S3Proxy. */
class CrtObjectClientTest extends SdkObjectClientS3ProxyTest {
    CrtObjectClientTest() {
        super(ClientSettings.HttpClientType.CRT);
    }
}
