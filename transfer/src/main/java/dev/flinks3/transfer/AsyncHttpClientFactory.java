package dev.flinks3.transfer;

import java.time.Duration;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.http.crt.AwsCrtAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;

/**
 * Builds the one asynchronous HTTP client of a process from {@link S3Settings}: the AWS Common
 * Runtime client or the Netty client, with the connection limit and timeouts applied the same way
 * to both. The caller owns (and closes) the returned client.
 */
final class AsyncHttpClientFactory {

    /**
     * A CRT connection that moves fewer bytes per second than this for the socket timeout is
     * dropped: the CRT client has no read timeout, its throughput monitor is the equivalent.
     */
    private static final long CRT_MIN_THROUGHPUT_BYTES_PER_SECOND = 1;

    private AsyncHttpClientFactory() {}

    /** A new HTTP client of the configured type; the caller closes it. */
    static SdkAsyncHttpClient create(S3Settings settings) {
        switch (settings.httpClient()) {
            case CRT:
                return crt(settings);
            case NETTY:
                return netty(settings);
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

    private static SdkAsyncHttpClient netty(S3Settings settings) {
        return NettyNioAsyncHttpClient.builder()
                .maxConcurrency(settings.maxConnections())
                .connectionTimeout(settings.connectionTimeout())
                .connectionAcquisitionTimeout(connectionAcquisitionTimeout(settings))
                .readTimeout(settings.socketTimeout())
                .writeTimeout(settings.socketTimeout())
                .tcpKeepAlive(true)
                .build();
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
