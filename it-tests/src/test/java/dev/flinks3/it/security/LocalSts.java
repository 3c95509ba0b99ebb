package dev.flinks3.it.security;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import com.github.tomakehurst.wiremock.WireMockServer;

/**
 * A WireMock server on 127.0.0.1 standing in for AWS STS, with the SDK pointed at it through its documented
 * {@code aws.endpointUrlSts} system property (the plugin has no STS endpoint setting). Closing stops it and
 * restores the property. Tests stub its answers on {@link #server()}.
 */
final class LocalSts implements AutoCloseable {

    private static final String STS_ENDPOINT_PROPERTY = "aws.endpointUrlSts";

    private final WireMockServer server;
    private final String savedEndpoint;

    LocalSts() {
        server = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
        server.start();
        savedEndpoint = System.getProperty(STS_ENDPOINT_PROPERTY);
        System.setProperty(STS_ENDPOINT_PROPERTY, "http://127.0.0.1:" + server.port());
    }

    /** The stand-in, for stubbing answers and verifying requests. */
    WireMockServer server() {
        return server;
    }

    @Override
    public void close() {
        if (savedEndpoint == null) {
            System.clearProperty(STS_ENDPOINT_PROPERTY);
        } else {
            System.setProperty(STS_ENDPOINT_PROPERTY, savedEndpoint);
        }
        server.stop();
    }
}
