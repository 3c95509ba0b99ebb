package dev.flinks3.fs;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.transfer.ClientSettings.HttpClientType;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** Flink configurations that point the plugin at an {@link EmbeddedS3Server}. */
final class ServerConfigs {

    private ServerConfigs() {}

    /** Endpoint, path style, the server's keys and region, the given HTTP client; a mutable map. */
    static Map<String, String> forServer(EmbeddedS3Server server, HttpClientType httpClient) {
        Map<String, String> config = new HashMap<>();
        config.put("s3.endpoint", server.endpoint().toString());
        config.put("s3.path-style-access", "true");
        config.put("s3.access-key", server.accessKey());
        config.put("s3.secret-key", server.secretKey());
        config.put("s3.region", server.region());
        config.put("s3.http-client", httpClient.name().toLowerCase(Locale.ROOT));
        return config;
    }
}
