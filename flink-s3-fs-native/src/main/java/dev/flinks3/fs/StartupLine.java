package dev.flinks3.fs;

import dev.flinks3.transfer.ClientSettings;
import java.net.URI;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one INFO line a process logs when the first filesystem of this plugin is created: which build of the plugin
 * runs on which Flink, the S3 client and HTTP client in use, the endpoint and region, and where the credentials
 * came from. The line shows no secret: the endpoint without user information, the credentials by source only.
 */
final class StartupLine {

    private static final Logger LOG = LoggerFactory.getLogger(StartupLine.class);

    /** Whether this process (this plugin's class loader) logged the line. */
    private static final AtomicBoolean LOGGED = new AtomicBoolean();

    private StartupLine() {}

    /**
     * Logs the line unless a filesystem of this process did. Resolves the client's credentials for it, as the
     * first request would (the providers keep them); a failure to resolve is named in the line, not thrown.
     */
    static void logOnce(S3Runtime.Client client, ClientSettings settings) {
        if (LOGGED.compareAndSet(false, true)) {
            LOG.info(
                    "{}",
                    text(
                            PluginBuild.current(),
                            PluginBuild.flinkVersion(),
                            settings,
                            client.httpClientInUse(),
                            client.region(),
                            client.credentialsSource()));
        }
    }

    /**
     * The line, e.g. {@code flinks3 0.1.0 (commit 1a2b3c4d5e) on Flink 2.3.0: s3.client sdk on the crt HTTP
     * client, endpoint AWS's regional endpoint, region eu-west-1, credentials the default credentials chain
     * (resolved by CREDENTIALS_STS_ASSUME_ROLE_WEB_ID)}.
     *
     * @param httpClient the HTTP client in use (the configured one, or Netty where the CRT's library did not load)
     * @param credentials where the credentials came from, without a key
     */
    static String text(
            PluginBuild build,
            String flinkVersion,
            ClientSettings settings,
            ClientSettings.HttpClientType httpClient,
            String region,
            String credentials) {
        ClientSettings.ClientType client = settings.client();
        return "flinks3 " + build + " on Flink " + flinkVersion + ": " + S3ConfigOptions.S3_CLIENT.key() + " "
                + lower(client)
                + (client == ClientSettings.ClientType.SDK ? " on the " + lower(httpClient) + " HTTP client" : "")
                + ", endpoint " + endpoint(settings.endpoint()) + ", region " + region + ", credentials "
                + credentials;
    }

    /** The endpoint without user information (which could hold a password), or AWS's. */
    private static String endpoint(URI endpoint) {
        if (endpoint == null) {
            return "AWS's regional endpoint";
        }
        return endpoint.getScheme() + "://" + endpoint.getHost()
                + (endpoint.getPort() < 0 ? "" : ":" + endpoint.getPort())
                + (endpoint.getRawPath() == null ? "" : endpoint.getRawPath());
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
