package dev.flinks3.transfer;

import dev.flinks3.testserver.EmbeddedS3Server;

/** Settings that point at an {@link EmbeddedS3Server}. */
public final class TestSettings {

    private TestSettings() {}

    /** Endpoint, path style, the server's keys and region, the given HTTP client, few retries. */
    public static S3Settings.Builder forServer(EmbeddedS3Server server, S3Settings.HttpClientType httpClient) {
        return S3Settings.builder()
                .endpoint(server.endpoint())
                .region(server.region())
                .pathStyleAccess(true)
                .accessKey(server.accessKey())
                .secretKey(Secret.ofNullable(server.secretKey()))
                .httpClient(httpClient)
                .maxRetries(3);
    }
}
