package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.aws.Closer;
import dev.flinks3.transfer.aws.HttpProxies;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.apache5.ProxyConfiguration;

/**
 * Builds the blocking HTTP client of a process (the SDK's Apache HttpClient 5 client) from {@link
 * ClientSettings}, with the same connection limit, timeouts, trusted CAs and proxy route as the
 * asynchronous one ({@link AsyncHttpClientFactory}). The ranged GETs whose body a reader streams
 * (sequential reads) are sent on it: the body is read from the socket into the reader's array on the
 * reader's thread, instead of being handed over in buffers between threads. A connection idle for longer
 * than {@code connectionMaxIdleTime} is never reused; the SDK's reaper closes it within a minute after
 * that. Its connections are spread over every address a host name resolves to ({@link SpreadingDnsResolver}).
 * What it creates is registered with the caller's {@link Closer}.
 */
final class BlockingHttpClientFactory {

    private BlockingHttpClientFactory() {}

    /**
     * A new blocking HTTP client, registered with {@code closer}. It reads no proxy setting of its own:
     * the route is {@code proxies}', resolved once for both clients.
     *
     * @throws IllegalArgumentException if the configured CA file cannot be read
     */
    static SdkHttpClient create(ClientSettings settings, HttpProxies proxies, Closer closer) {
        return create(settings, proxies, closer, SpreadingDnsResolver.HostAddresses.SYSTEM);
    }

    /**
     * As {@link #create(ClientSettings, HttpProxies, Closer)}, with host names looked up by {@code lookup}; the
     * connections are spread over the addresses it returns ({@link SpreadingDnsResolver}).
     */
    static SdkHttpClient create(
            ClientSettings settings, HttpProxies proxies, Closer closer, SpreadingDnsResolver.HostAddresses lookup) {
        Apache5HttpClient.Builder builder = Apache5HttpClient.builder()
                .dnsResolver(new SpreadingDnsResolver(lookup))
                .maxConnections(settings.maxConnections())
                .connectionTimeout(settings.connectionTimeout())
                .socketTimeout(settings.socketTimeout())
                .connectionMaxIdleTime(settings.connectionMaxIdleTime())
                // As for the asynchronous client: waiting for a pooled connection is bounded by the
                // per-attempt timeout, not the SDK's 10 s default.
                .connectionAcquisitionTimeout(settings.apiCallAttemptTimeout())
                .tcpKeepAlive(true);
        if (settings.sslCaFile() != null) {
            TrustedCertificates trusted = TrustedCertificates.load(settings.sslCaFile());
            builder.tlsTrustManagersProvider(trusted::trustManagers);
        }
        builder.proxyConfiguration(
                proxies.proxy().isPresent()
                        ? proxies.apache5()
                        : ProxyConfiguration.builder()
                                .useSystemPropertyValues(false)
                                .useEnvironmentVariableValues(false)
                                .build());
        return closer.register(builder.build());
    }
}
