package dev.flinks3.transfer;

import dev.flinks3.testserver.EmbeddedS3Server;

/** Settings that point at an {@link EmbeddedS3Server}. */
public final class TestSettings {

    private TestSettings() {}

    /** Endpoint, path style, the server's keys and region, the given HTTP client, few retries. */
    public static S3Settings.Builder forServer(EmbeddedS3Server server, ClientSettings.HttpClientType httpClient) {
        return S3Settings.builder()
                .client(c -> c.endpoint(server.endpoint())
                        .region(server.region())
                        .pathStyleAccess(true)
                        .httpClient(httpClient)
                        .maxRetries(3)
                        .credentials(
                                k -> k.accessKey(server.accessKey()).secretKey(Secret.ofNullable(server.secretKey()))));
    }
}
