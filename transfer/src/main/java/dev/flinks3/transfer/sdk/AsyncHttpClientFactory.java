package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.aws.Closer;
import dev.flinks3.transfer.aws.CrtNativeLibrary;
import dev.flinks3.transfer.aws.CrtThroughputMonitor;
import dev.flinks3.transfer.aws.HttpProxies;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.crt.io.TlsContext;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.http.crt.AwsCrtAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.utils.ThreadFactoryBuilder;

/**
 * Builds the one asynchronous HTTP client of a process from {@link ClientSettings}: the AWS Common
 * Runtime client or the Netty client, with the connection limit, timeouts, trusted CAs and proxy
 * applied the same way to both. When the CRT's native library does not load, the Netty client takes
 * its place (one warning, see {@link CrtNativeLibrary}). What it creates is registered with the
 * caller's {@link Closer}. Every client keeps the late reports of an attempt the SDK abandoned away from
 * the attempt after it ({@link AbandonedAttemptFilter}).
 */
final class AsyncHttpClientFactory {

    /**
     * A CRT connection that moves fewer bytes per second than this for the socket timeout is
     * dropped: the CRT client has no read timeout, its throughput monitor is the equivalent.
     */
    private static final long CRT_MIN_THROUGHPUT_BYTES_PER_SECOND = 1;

    private static final long EVENT_LOOP_SHUTDOWN_TIMEOUT_MS = 5_000;

    /** The JVM's trust store property, which the CRT client reads only when told to. */
    private static final String TRUST_STORE_PROPERTY = "javax.net.ssl.trustStore";

    private AsyncHttpClientFactory() {}

    /**
     * A new HTTP client of the configured type, registered with {@code closer} (as are its event loops).
     *
     * @param proxies the proxy route of the requests
     * @throws IllegalArgumentException if the configured CA file cannot be read
     */
    static SdkAsyncHttpClient create(ClientSettings settings, HttpProxies proxies, Closer closer) {
        TrustedCertificates trusted =
                settings.sslCaFile() == null ? null : TrustedCertificates.load(settings.sslCaFile());
        switch (settings.httpClient()) {
            case CRT:
                Throwable notLoaded = CrtNativeLibrary.loadFailure();
                if (notLoaded != null) {
                    CrtNativeLibrary.warnFallback(notLoaded);
                    return AbandonedAttemptFilter.around(netty(settings, trusted, proxies, closer));
                }
                return AbandonedAttemptFilter.around(crt(settings, trusted, proxies, closer));
            case NETTY:
                return AbandonedAttemptFilter.around(netty(settings, trusted, proxies, closer));
            default:
                throw new IllegalArgumentException("unknown HTTP client " + settings.httpClient());
        }
    }

    /** Which kind of client {@link #create} built. */
    static ClientSettings.HttpClientType typeOf(SdkAsyncHttpClient client) {
        return AbandonedAttemptFilter.unwrap(client) instanceof NettyNioAsyncHttpClient
                ? ClientSettings.HttpClientType.NETTY
                : ClientSettings.HttpClientType.CRT;
    }

    private static SdkAsyncHttpClient crt(
            ClientSettings settings, TrustedCertificates trusted, HttpProxies proxies, Closer closer) {
        // Registered before the client, so closed after it.
        TlsContext tls = trusted == null ? null : closer.register(CrtTrustStore.context(trusted));
        AwsCrtAsyncHttpClient.Builder builder = AwsCrtAsyncHttpClient.builder()
                .maxConcurrency(settings.maxConnections())
                .connectionTimeout(settings.connectionTimeout())
                .connectionMaxIdleTime(settings.connectionMaxIdleTime())
                .connectionAcquisitionTimeout(connectionAcquisitionTimeout(settings))
                .connectionHealthConfiguration(
                        health -> health.minimumThroughputInBps(CRT_MIN_THROUGHPUT_BYTES_PER_SECOND)
                                .minimumThroughputTimeout(CrtThroughputMonitor.timeout(settings.socketTimeout())))
                .useTrustStoreSystemProperties(trusted == null && isSet(System.getProperty(TRUST_STORE_PROPERTY)));
        proxies.proxy().ifPresent(proxy -> builder.proxyConfiguration(proxies.crt()));
        SdkAsyncHttpClient client = closer.register(builder.build());
        if (tls != null) {
            CrtTrustStore.install(client, tls);
        }
        return client;
    }

    /**
     * The Netty client on event loops we own: the SDK would shut its own loops down with Netty's
     * two-second quiet period, which every filesystem close would then wait for. By the time the
     * loops are closed the client is closed and no request is left to be quiet for. Netty reads the
     * JVM's trust store itself.
     */
    private static SdkAsyncHttpClient netty(
            ClientSettings settings, TrustedCertificates trusted, HttpProxies proxies, Closer closer) {
        SdkEventLoopGroup eventLoops = SdkEventLoopGroup.builder()
                .threadFactory(new ThreadFactoryBuilder()
                        .threadNamePrefix("flinks3-s3-netty")
                        .daemonThreads(true)
                        .build())
                .build();
        closer.register(() -> eventLoops
                .eventLoopGroup()
                .shutdownGracefully(0, EVENT_LOOP_SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                .await(EVENT_LOOP_SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS));
        NettyNioAsyncHttpClient.Builder builder = NettyNioAsyncHttpClient.builder()
                .eventLoopGroup(eventLoops)
                .maxConcurrency(settings.maxConnections())
                .connectionTimeout(settings.connectionTimeout())
                .connectionMaxIdleTime(settings.connectionMaxIdleTime())
                .connectionAcquisitionTimeout(connectionAcquisitionTimeout(settings))
                .readTimeout(settings.socketTimeout())
                .writeTimeout(settings.socketTimeout())
                .tcpKeepAlive(true);
        if (trusted != null) {
            builder.tlsTrustManagersProvider(trusted::trustManagers);
        }
        proxies.proxy().ifPresent(proxy -> builder.proxyConfiguration(proxies.netty()));
        return closer.register(builder.build());
    }

    /**
     * Requests queue for a pooled connection when more than {@code maxConnections} are in flight
     * (a bulk download easily has that many). The SDK's default of 10 s would fail such waits under
     * normal load; the per-attempt timeout already bounds them.
     */
    private static Duration connectionAcquisitionTimeout(ClientSettings settings) {
        return settings.apiCallAttemptTimeout();
    }

    private static boolean isSet(String value) {
        return value != null && !value.isEmpty();
    }
}
