package dev.flinks3.transfer.crt;

import dev.flinks3.transfer.HttpProxy;
import dev.flinks3.transfer.NonProxyHosts;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.aws.ClientRules;
import dev.flinks3.transfer.aws.CrtNativeLibrary;
import dev.flinks3.transfer.aws.CrtThroughputMonitor;
import dev.flinks3.transfer.aws.HttpProxies;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3CrtAsyncClientBuilder;
import software.amazon.awssdk.services.s3.crt.S3CrtHttpConfiguration;
import software.amazon.awssdk.services.s3.crt.S3CrtProxyConfiguration;

/**
 * Builds the CRT-based S3 client ({@code S3AsyncClient.crtBuilder()}, the AWS Common Runtime's
 * aws-c-s3) from {@link S3Settings}, for {@code s3.client: crt}. The native client owns its
 * connection pool, signs and retries requests itself and splits large GETs and uploads of unknown
 * length into parallel ranged GETs and parts.
 *
 * <p>How our settings map onto it: {@code maxConnections} is its {@code maxConcurrency} and sets its
 * target throughput ({@value #GBPS_PER_CONNECTION} Gbps per connection, the rate aws-c-s3 plans a
 * connection for, so that it opens as many connections as the cap allows); {@code
 * partSizeBytes} its {@code minimumPartSizeInBytes}; the process buffer limit its native memory
 * limit (at least the 1 GiB aws-c-s3 requires); {@code maxRetries} its number of retries; the
 * connection timeout and the socket timeout (as a minimum-throughput monitor, as for the CRT HTTP
 * client) its HTTP configuration. A known-length PutObject is always sent as one request (the
 * multipart threshold is S3's largest single PUT), so the engines keep control of multipart uploads.
 *
 * <p>What it cannot take: the SDK retry strategy (backoff delays, the throttling budget, the
 * retry counts of the request metrics), metric publishers and execution interceptors, client
 * and per-attempt timeouts, a custom CA file, and non-proxy host patterns (the proxy is left out
 * for an endpoint they match, since the endpoint is the only host).
 *
 * @see <a href="https://docs.aws.amazon.com/sdk-for-java/latest/developer-guide/crt-based-s3-client.html">
 *     Use a performant S3 client: the AWS CRT-based S3 client</a>
 */
public final class CrtS3Client {

    /** aws-c-s3 refuses a native memory limit below 1 GiB. */
    static final long MIN_NATIVE_MEMORY_BYTES = 1024L * 1024 * 1024;

    /**
     * The throughput aws-c-s3 plans per connection: it opens target throughput / this many connections,
     * capped by {@code maxConcurrency}, so the target is derived from the connection cap.
     */
    static final double GBPS_PER_CONNECTION = 0.4;

    /** As for the CRT HTTP client: a connection slower than this for the socket timeout is dropped. */
    private static final long MIN_THROUGHPUT_BYTES_PER_SECOND = 1;

    private CrtS3Client() {}

    /**
     * A new CRT-based S3 client; the caller closes it.
     *
     * @param credentials the client's credentials, for requests that carry none of their own
     * @param completion completes the client's futures, off the CRT's event loops
     * @throws IllegalStateException if the CRT's native library does not load
     * @throws IllegalArgumentException if {@code settings} names a CA file, which this client cannot trust
     */
    public static S3AsyncClient build(
            S3Settings settings,
            AwsCredentialsProvider credentials,
            Region region,
            HttpProxies proxies,
            Executor completion) {
        Throwable notLoaded = CrtNativeLibrary.loadFailure();
        if (notLoaded != null) {
            throw new IllegalStateException("the CRT-based S3 client needs the AWS CRT native library, which did"
                    + " not load (" + CrtNativeLibrary.describe(notLoaded) + ")");
        }
        if (settings.client().sslCaFile() != null) {
            throw new IllegalArgumentException("the CRT-based S3 client cannot trust a CA file ("
                    + settings.client().sslCaFile() + "): it takes the system's trust store only");
        }
        S3CrtAsyncClientBuilder builder = S3AsyncClient.crtBuilder()
                .credentialsProvider(credentials)
                .region(region)
                .forcePathStyle(settings.client().pathStyleAccess())
                .requestChecksumCalculation(ClientRules.requestChecksums())
                .responseChecksumValidation(ClientRules.responseChecksums(settings.client()))
                .maxConcurrency(settings.client().maxConnections())
                .targetThroughputInGbps(targetThroughputGbps(settings))
                .minimumPartSizeInBytes(settings.upload().partSizeBytes())
                .thresholdInBytes(UploadSettings.MAX_PART_SIZE)
                .maxNativeMemoryLimitInBytes(nativeMemoryLimit(settings))
                .retryConfiguration(retry -> retry.numRetries(settings.client().maxRetries()))
                .httpConfiguration(http(settings, proxies))
                .futureCompletionExecutor(completion);
        if (settings.client().endpoint() != null) {
            builder.endpointOverride(settings.client().endpoint());
        }
        return builder.crossRegionAccessEnabled(ClientRules.crossRegionAccess(settings.client()))
                .build();
    }

    /**
     * The target throughput that makes aws-c-s3 use {@code maxConnections} connections: with the SDK's
     * default of 10 Gbps it would open 25, fewer than the default cap of 96.
     */
    static double targetThroughputGbps(S3Settings settings) {
        return settings.client().maxConnections() * GBPS_PER_CONNECTION;
    }

    /** The native client's memory limit: the process buffer limit, at least 1 GiB. */
    static long nativeMemoryLimit(S3Settings settings) {
        return Math.max(MIN_NATIVE_MEMORY_BYTES, settings.upload().maxBufferedBytesPerProcess());
    }

    private static S3CrtHttpConfiguration http(S3Settings settings, HttpProxies proxies) {
        S3CrtHttpConfiguration.Builder http = S3CrtHttpConfiguration.builder()
                .connectionTimeout(settings.client().connectionTimeout())
                .connectionHealthConfiguration(health -> health.minimumThroughputInBps(MIN_THROUGHPUT_BYTES_PER_SECOND)
                        .minimumThroughputTimeout(
                                CrtThroughputMonitor.timeout(settings.client().socketTimeout())));
        proxyOf(settings, proxies).ifPresent(proxy -> {
            S3CrtProxyConfiguration.Builder p = S3CrtProxyConfiguration.builder()
                    .useSystemPropertyValues(false)
                    .useEnvironmentVariableValues(false)
                    .scheme("http")
                    .host(proxy.host())
                    .port(proxy.port());
            if (proxy.username() != null) {
                p.username(proxy.username())
                        .password(
                                proxy.password() == null
                                        ? null
                                        : proxy.password().reveal());
            }
            http.proxyConfiguration(p.build());
        });
        return http.build();
    }

    /** The proxy the client goes through: none where the endpoint's host matches a non-proxy host pattern. */
    static Optional<HttpProxy> proxyOf(S3Settings settings, HttpProxies proxies) {
        return proxies.proxy().filter(proxy -> !bypassesProxy(settings, proxies));
    }

    /** True if the endpoint's host matches a non-proxy host pattern. */
    private static boolean bypassesProxy(S3Settings settings, HttpProxies proxies) {
        if (settings.client().endpoint() == null || settings.client().endpoint().getHost() == null) {
            return false;
        }
        String host = settings.client().endpoint().getHost();
        return NonProxyHosts.asRegularExpressions(proxies.nonProxyHosts()).stream()
                .anyMatch(regex -> Pattern.matches(regex, host));
    }
}
