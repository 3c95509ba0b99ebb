package dev.flinks3.transfer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.http.crt.AwsCrtAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.utils.ThreadFactoryBuilder;

/**
 * Builds the one asynchronous HTTP client of a process from {@link S3Settings}: the AWS Common
 * Runtime client or the Netty client, with the connection limit and timeouts applied the same way
 * to both. What it creates is registered with the caller's {@link Closer}.
 */
final class AsyncHttpClientFactory {

    /**
     * A CRT connection that moves fewer bytes per second than this for the socket timeout is
     * dropped: the CRT client has no read timeout, its throughput monitor is the equivalent.
     */
    private static final long CRT_MIN_THROUGHPUT_BYTES_PER_SECOND = 1;

    private static final long EVENT_LOOP_SHUTDOWN_TIMEOUT_MS = 5_000;

    private AsyncHttpClientFactory() {}

    /** A new HTTP client of the configured type, registered with {@code closer} (as are its event loops). */
    static SdkAsyncHttpClient create(S3Settings settings, Closer closer) {
        switch (settings.httpClient()) {
            case CRT:
                return closer.register(crt(settings));
            case NETTY:
                return netty(settings, closer);
            default:
                throw new IllegalArgumentException("unknown HTTP client " + settings.httpClient());
        }
    }

    private static SdkAsyncHttpClient crt(S3Settings settings) {
        return AwsCrtAsyncHttpClient.builder()
                .maxConcurrency(settings.maxConnections())
                .connectionTimeout(settings.connectionTimeout())
                .connectionAcquisitionTimeout(connectionAcquisitionTimeout(settings))
                .connectionHealthConfiguration(health -> health
                        .minimumThroughputInBps(CRT_MIN_THROUGHPUT_BYTES_PER_SECOND)
                        .minimumThroughputTimeout(settings.socketTimeout()))
                .build();
    }

    /**
     * The Netty client on event loops we own: the SDK would shut its own loops down with Netty's
     * two-second quiet period, which every filesystem close would then wait for. By the time the
     * loops are closed the client is closed and no request is left to be quiet for.
     */
    private static SdkAsyncHttpClient netty(S3Settings settings, Closer closer) {
        SdkEventLoopGroup eventLoops = SdkEventLoopGroup.builder()
                .threadFactory(new ThreadFactoryBuilder().threadNamePrefix("flinks3-s3-netty").daemonThreads(true).build())
                .build();
        closer.register(() -> eventLoops.eventLoopGroup()
                .shutdownGracefully(0, EVENT_LOOP_SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                .await(EVENT_LOOP_SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS));
        return closer.register(NettyNioAsyncHttpClient.builder()
                .eventLoopGroup(eventLoops)
                .maxConcurrency(settings.maxConnections())
                .connectionTimeout(settings.connectionTimeout())
                .connectionAcquisitionTimeout(connectionAcquisitionTimeout(settings))
                .readTimeout(settings.socketTimeout())
                .writeTimeout(settings.socketTimeout())
                .tcpKeepAlive(true)
                .build());
    }

    /**
     * Requests queue for a pooled connection when more than {@code maxConnections} are in flight
     * (a bulk download easily has that many). The SDK's default of 10 s would fail such waits under
     * normal load; the per-attempt timeout already bounds them.
     */
    private static Duration connectionAcquisitionTimeout(S3Settings settings) {
        return settings.apiCallAttemptTimeout();
    }
}
