package dev.flinks3.transfer;

import static dev.flinks3.transfer.SettingChecks.blankToNull;
import static dev.flinks3.transfer.SettingChecks.inRange;
import static dev.flinks3.transfer.SettingChecks.positive;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What the S3 client is built from: endpoint, region and addressing, credentials, the HTTP client
 * and its pool, timeouts, retries, integrity checksums, TLS trust and proxy, and the bucket-wide
 * request options (requester pays, access points). Read by the client owner and the HTTP client
 * factories only; uploads, reads and encryption have their own settings.
 *
 * <p>The {@code DEFAULT_*} and {@code MIN_*}/{@code MAX_*} constants are the one declaration of each
 * default and range: the builder starts from and checks against them, and the Flink configuration
 * options of the plugin take their defaults and ranges from them. Immutable and thread-safe.
 */
public final class ClientSettings {

    /** Region used for signing when a custom endpoint is given without a region. */
    public static final String DEFAULT_SIGNING_REGION = "us-east-1";

    public static final int DEFAULT_MAX_CONNECTIONS = 96;
    public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_CONNECTION_MAX_IDLE_TIME = Duration.ofSeconds(60);
    public static final Duration DEFAULT_API_CALL_ATTEMPT_TIMEOUT = Duration.ofMinutes(2);
    public static final Duration DEFAULT_API_CALL_TIMEOUT = Duration.ofMinutes(10);
    public static final int DEFAULT_MAX_RETRIES = 10;
    /** Default base of the backoff between retries, in ms (full jitter). */
    public static final long DEFAULT_RETRY_BASE_DELAY_MS = 100;
    /** Default base of the backoff after a throttled attempt (503 SlowDown), in ms (half jitter). */
    public static final long DEFAULT_THROTTLING_RETRY_BASE_DELAY_MS = 1_000;
    /** Default longest backoff between retries, in ms. */
    public static final long DEFAULT_RETRY_MAX_DELAY_MS = 20_000;
    /** Most retries of one request that may be configured. */
    public static final int MAX_MAX_RETRIES = 100;

    public static final ClientType DEFAULT_CLIENT = ClientType.SDK;
    public static final HttpClientType DEFAULT_HTTP_CLIENT = HttpClientType.CRT;
    public static final boolean DEFAULT_CHECKSUMS_ENABLED = true;
    public static final boolean DEFAULT_CHUNKED_ENCODING_ENABLED = true;
    public static final boolean DEFAULT_EXPECT_CONTINUE_ENABLED = true;

    /** Which asynchronous HTTP client carries the requests. */
    public enum HttpClientType {
        /** The AWS Common Runtime HTTP client ({@code aws-crt-client}). */
        CRT,
        /** The Netty-based {@code netty-nio-client}. */
        NETTY
    }

    /**
     * Which S3 client carries the requests (the {@code s3.client} setting).
     *
     * @see <a href="https://docs.aws.amazon.com/sdk-for-java/latest/developer-guide/crt-based-s3-client.html">
     *     The AWS CRT-based S3 client</a>
     */
    public enum ClientType {
        /** The SDK's asynchronous S3 client on the {@link HttpClientType configured HTTP client}. */
        SDK,
        /**
         * The CRT-based S3 client ({@code S3AsyncClient.crtBuilder()}, aws-c-s3): its own connection
         * pool, retries and checksums in native code; the HTTP client setting does not apply.
         */
        CRT
    }

    private final URI endpoint;
    private final String region;
    private final boolean pathStyleAccess;
    private final CredentialSettings credentials;
    private final ClientType client;
    private final HttpClientType httpClient;
    private final int maxConnections;
    private final Duration connectionTimeout;
    private final Duration socketTimeout;
    private final Duration connectionMaxIdleTime;
    private final Duration apiCallAttemptTimeout;
    private final Duration apiCallTimeout;
    private final int maxRetries;
    private final Duration retryBaseDelay;
    private final Duration throttlingRetryBaseDelay;
    private final Duration retryMaxDelay;
    private final boolean checksumsEnabled;
    private final boolean chunkedEncodingEnabled;
    private final boolean expectContinueEnabled;
    private final Path sslCaFile;
    private final HttpProxy proxy;
    private final List<String> nonProxyHosts;
    private final boolean requesterPays;
    private final Map<String, String> accessPoints;

    private ClientSettings(Builder b) {
        this.endpoint = b.endpoint;
        this.region = b.region != null ? b.region : (b.endpoint != null ? DEFAULT_SIGNING_REGION : null);
        this.pathStyleAccess = b.pathStyleAccess;
        this.credentials = b.credentials.build();
        this.client = b.client;
        this.httpClient = b.httpClient;
        this.maxConnections = b.maxConnections;
        this.connectionTimeout = b.connectionTimeout;
        this.socketTimeout = b.socketTimeout;
        this.connectionMaxIdleTime = b.connectionMaxIdleTime;
        this.apiCallAttemptTimeout = b.apiCallAttemptTimeout;
        this.apiCallTimeout = b.apiCallTimeout;
        this.maxRetries = b.maxRetries;
        this.retryBaseDelay = b.retryBaseDelay;
        this.throttlingRetryBaseDelay = b.throttlingRetryBaseDelay;
        this.retryMaxDelay = b.retryMaxDelay;
        this.checksumsEnabled = b.checksumsEnabled;
        this.chunkedEncodingEnabled = b.chunkedEncodingEnabled;
        this.expectContinueEnabled = b.expectContinueEnabled;
        this.sslCaFile = b.sslCaFile;
        this.proxy = b.proxy;
        this.nonProxyHosts = b.nonProxyHosts == null ? null : List.copyOf(b.nonProxyHosts);
        this.requesterPays = b.requesterPays;
        this.accessPoints = Map.copyOf(b.accessPoints);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding every setting of this object, to derive changed settings from it. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Custom endpoint (MinIO, S3Proxy, a VPC endpoint), or {@code null} for AWS's regional endpoint. */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * Region to sign for, or {@code null} to use the SDK's default region chain. Never {@code null}
     * when a custom endpoint is set: it then defaults to {@value #DEFAULT_SIGNING_REGION}.
     */
    public String region() {
        return region;
    }

    /** Path-style addressing ({@code endpoint/bucket/key}) instead of virtual-hosted style. */
    public boolean pathStyleAccess() {
        return pathStyleAccess;
    }

    /** Where the credentials come from. */
    public CredentialSettings credentials() {
        return credentials;
    }

    /** Which S3 client carries the requests. */
    public ClientType client() {
        return client;
    }

    public HttpClientType httpClient() {
        return httpClient;
    }

    /** Most concurrent HTTP connections of the process's one client. */
    public int maxConnections() {
        return maxConnections;
    }

    /** Longest wait to establish a TCP/TLS connection. */
    public Duration connectionTimeout() {
        return connectionTimeout;
    }

    /** Longest wait for bytes on an open connection. */
    public Duration socketTimeout() {
        return socketTimeout;
    }

    /** Idle time after which a pooled connection is closed. */
    public Duration connectionMaxIdleTime() {
        return connectionMaxIdleTime;
    }

    /** Longest one attempt of a request may take before it is abandoned and retried. */
    public Duration apiCallAttemptTimeout() {
        return apiCallAttemptTimeout;
    }

    /** Longest a request may take including all retries. */
    public Duration apiCallTimeout() {
        return apiCallTimeout;
    }

    /** Retries after the first attempt (so attempts = maxRetries + 1). */
    public int maxRetries() {
        return maxRetries;
    }

    /**
     * Base of the exponential backoff (full jitter) before retrying a 5xx, a timeout or a broken
     * connection: the first retry waits up to twice this.
     */
    public Duration retryBaseDelay() {
        return retryBaseDelay;
    }

    /**
     * Base of the exponential backoff (half jitter) before retrying a throttled request (503, 429):
     * the first retry waits at least half of this.
     */
    public Duration throttlingRetryBaseDelay() {
        return throttlingRetryBaseDelay;
    }

    /** Longest backoff before any retry. */
    public Duration retryMaxDelay() {
        return retryMaxDelay;
    }

    /** Send a checksum with every upload (CRC32C, or Content-MD5 where ignored) and validate downloads. */
    public boolean checksumsEnabled() {
        return checksumsEnabled;
    }

    /** Allow aws-chunked transfer encoding of request bodies. */
    public boolean chunkedEncodingEnabled() {
        return chunkedEncodingEnabled;
    }

    /**
     * Send {@code Expect: 100-continue} with PutObject and UploadPart bodies, so a server can refuse a
     * request before its body is sent (RFC 9110, section 10.1.1); off for proxies and servers that
     * mishandle it. The SDK's client sends it for bodies of 1 MiB or more only (its threshold); the
     * CRT-based S3 client sends it with every UploadPart and cannot be told not to.
     */
    public boolean expectContinueEnabled() {
        return expectContinueEnabled;
    }

    /**
     * PEM file of the certificates (CAs) trusted for TLS to the endpoint instead of the default ones, or
     * {@code null} for the JVM's trust store ({@code javax.net.ssl.trustStore} when set).
     */
    public Path sslCaFile() {
        return sslCaFile;
    }

    /**
     * The HTTP proxy configured for S3 requests, or {@code null} to take one from the JVM's proxy
     * system properties or the proxy environment variables, if any.
     */
    public HttpProxy proxy() {
        return proxy;
    }

    /**
     * Hosts reached without the proxy ({@code host}, {@code *.domain} or {@code *}), or {@code null}
     * when not configured (then those of the system properties or environment apply).
     */
    public List<String> nonProxyHosts() {
        return nonProxyHosts;
    }

    /**
     * Whether every request says the requester pays for it ({@code x-amz-request-payer: requester}),
     * as S3 asks for buckets with Requester Pays enabled (S3 user guide, "Using Requester Pays buckets").
     */
    public boolean requesterPays() {
        return requesterPays;
    }

    /**
     * Access points to send requests to in place of a bucket: bucket name (as in {@code s3://bucket/})
     * to an access point ARN or alias, which the SDK signs and resolves the endpoint for. Empty for none.
     */
    public Map<String, String> accessPoints() {
        return accessPoints;
    }

    /** Every setting except secrets, which show as {@code ******} when set. */
    @Override
    public String toString() {
        return "endpoint=" + endpoint
                + ", region=" + region
                + ", pathStyleAccess=" + pathStyleAccess
                + ", " + credentials
                + ", client=" + client
                + ", httpClient=" + httpClient
                + ", maxConnections=" + maxConnections
                + ", connectionTimeout=" + connectionTimeout
                + ", socketTimeout=" + socketTimeout
                + ", connectionMaxIdleTime=" + connectionMaxIdleTime
                + ", apiCallAttemptTimeout=" + apiCallAttemptTimeout
                + ", apiCallTimeout=" + apiCallTimeout
                + ", maxRetries=" + maxRetries
                + ", retryBaseDelay=" + retryBaseDelay
                + ", throttlingRetryBaseDelay=" + throttlingRetryBaseDelay
                + ", retryMaxDelay=" + retryMaxDelay
                + ", checksums=" + checksumsEnabled
                + ", chunkedEncoding=" + chunkedEncodingEnabled
                + ", expectContinue=" + expectContinueEnabled
                + ", sslCaFile=" + sslCaFile
                + ", proxy=" + proxy
                + ", nonProxyHosts=" + nonProxyHosts
                + (requesterPays ? ", requesterPays=true" : "")
                + (accessPoints.isEmpty() ? "" : ", accessPoints=" + accessPoints);
    }

    /** Collects client settings; every setter checks its own range, {@link #build()} the combinations. */
    public static final class Builder {
        private URI endpoint;
        private String region;
        private boolean pathStyleAccess;
        private CredentialSettings.Builder credentials = CredentialSettings.builder();
        private ClientType client = DEFAULT_CLIENT;
        private HttpClientType httpClient = DEFAULT_HTTP_CLIENT;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;
        private Duration socketTimeout = DEFAULT_SOCKET_TIMEOUT;
        private Duration connectionMaxIdleTime = DEFAULT_CONNECTION_MAX_IDLE_TIME;
        private Duration apiCallAttemptTimeout = DEFAULT_API_CALL_ATTEMPT_TIMEOUT;
        private Duration apiCallTimeout = DEFAULT_API_CALL_TIMEOUT;
        private int maxRetries = DEFAULT_MAX_RETRIES;
        private Duration retryBaseDelay = Duration.ofMillis(DEFAULT_RETRY_BASE_DELAY_MS);
        private Duration throttlingRetryBaseDelay = Duration.ofMillis(DEFAULT_THROTTLING_RETRY_BASE_DELAY_MS);
        private Duration retryMaxDelay = Duration.ofMillis(DEFAULT_RETRY_MAX_DELAY_MS);
        private boolean checksumsEnabled = DEFAULT_CHECKSUMS_ENABLED;
        private boolean chunkedEncodingEnabled = DEFAULT_CHUNKED_ENCODING_ENABLED;
        private boolean expectContinueEnabled = DEFAULT_EXPECT_CONTINUE_ENABLED;
        private Path sslCaFile;
        private HttpProxy proxy;
        private List<String> nonProxyHosts;
        private boolean requesterPays;
        private Map<String, String> accessPoints = Map.of();

        private Builder() {}

        private Builder(ClientSettings s) {
            endpoint = s.endpoint;
            region = s.region;
            pathStyleAccess = s.pathStyleAccess;
            credentials = s.credentials.toBuilder();
            client = s.client;
            httpClient = s.httpClient;
            maxConnections = s.maxConnections;
            connectionTimeout = s.connectionTimeout;
            socketTimeout = s.socketTimeout;
            connectionMaxIdleTime = s.connectionMaxIdleTime;
            apiCallAttemptTimeout = s.apiCallAttemptTimeout;
            apiCallTimeout = s.apiCallTimeout;
            maxRetries = s.maxRetries;
            retryBaseDelay = s.retryBaseDelay;
            throttlingRetryBaseDelay = s.throttlingRetryBaseDelay;
            retryMaxDelay = s.retryMaxDelay;
            checksumsEnabled = s.checksumsEnabled;
            chunkedEncodingEnabled = s.chunkedEncodingEnabled;
            expectContinueEnabled = s.expectContinueEnabled;
            sslCaFile = s.sslCaFile;
            proxy = s.proxy;
            nonProxyHosts = s.nonProxyHosts;
            requesterPays = s.requesterPays;
            accessPoints = s.accessPoints;
        }

        /** @throws IllegalArgumentException unless the URI is absolute http(s) with a host */
        public Builder endpoint(URI value) {
            if (value != null
                    && (value.getScheme() == null
                            || !(value.getScheme().equals("http")
                                    || value.getScheme().equals("https"))
                            || value.getHost() == null)) {
                throw new IllegalArgumentException(
                        "endpoint '" + value + "' is not an http:// or https:// URL with a host");
            }
            this.endpoint = value;
            return this;
        }

        public Builder region(String value) {
            this.region = blankToNull(value);
            return this;
        }

        public Builder pathStyleAccess(boolean value) {
            this.pathStyleAccess = value;
            return this;
        }

        /** Changes the credential settings; {@link #build()} checks them. */
        public Builder credentials(Consumer<CredentialSettings.Builder> change) {
            change.accept(credentials);
            return this;
        }

        public Builder credentials(CredentialSettings value) {
            this.credentials = value.toBuilder();
            return this;
        }

        public Builder client(ClientType value) {
            this.client = Objects.requireNonNull(value, "client");
            return this;
        }

        public Builder httpClient(HttpClientType value) {
            this.httpClient = Objects.requireNonNull(value, "httpClient");
            return this;
        }

        public Builder maxConnections(int value) {
            this.maxConnections = inRange("maxConnections", value, 1, Integer.MAX_VALUE);
            return this;
        }

        public Builder connectionTimeout(Duration value) {
            this.connectionTimeout = positive("connectionTimeout", value);
            return this;
        }

        public Builder socketTimeout(Duration value) {
            this.socketTimeout = positive("socketTimeout", value);
            return this;
        }

        public Builder connectionMaxIdleTime(Duration value) {
            this.connectionMaxIdleTime = positive("connectionMaxIdleTime", value);
            return this;
        }

        public Builder apiCallAttemptTimeout(Duration value) {
            this.apiCallAttemptTimeout = positive("apiCallAttemptTimeout", value);
            return this;
        }

        public Builder apiCallTimeout(Duration value) {
            this.apiCallTimeout = positive("apiCallTimeout", value);
            return this;
        }

        /** @throws IllegalArgumentException outside 0..{@value #MAX_MAX_RETRIES} */
        public Builder maxRetries(int value) {
            this.maxRetries = inRange("maxRetries", value, 0, MAX_MAX_RETRIES);
            return this;
        }

        public Builder retryBaseDelay(Duration value) {
            this.retryBaseDelay = positive("retryBaseDelay", value);
            return this;
        }

        public Builder throttlingRetryBaseDelay(Duration value) {
            this.throttlingRetryBaseDelay = positive("throttlingRetryBaseDelay", value);
            return this;
        }

        public Builder retryMaxDelay(Duration value) {
            this.retryMaxDelay = positive("retryMaxDelay", value);
            return this;
        }

        public Builder checksumsEnabled(boolean value) {
            this.checksumsEnabled = value;
            return this;
        }

        public Builder chunkedEncodingEnabled(boolean value) {
            this.chunkedEncodingEnabled = value;
            return this;
        }

        /** See {@link ClientSettings#expectContinueEnabled()}. */
        public Builder expectContinueEnabled(boolean value) {
            this.expectContinueEnabled = value;
            return this;
        }

        /** PEM file of the CA certificates trusted for the endpoint; {@code null} for the JVM's trust store. */
        public Builder sslCaFile(Path value) {
            this.sslCaFile = value;
            return this;
        }

        /** The HTTP proxy for S3 requests; {@code null} for the system properties' or environment's. */
        public Builder proxy(HttpProxy value) {
            this.proxy = value;
            return this;
        }

        /**
         * Hosts reached without a proxy; {@code null} leaves those of the system properties or
         * environment in force.
         *
         * @throws IllegalArgumentException if a pattern is not a host name, {@code *.domain} or {@code *}
         */
        public Builder nonProxyHosts(List<String> value) {
            if (value != null) {
                value.forEach(NonProxyHosts::check);
            }
            this.nonProxyHosts = value == null ? null : List.copyOf(value);
            return this;
        }

        /** Whether every request carries {@code x-amz-request-payer: requester}. */
        public Builder requesterPays(boolean value) {
            this.requesterPays = value;
            return this;
        }

        /** Bucket name to access point ARN or alias; see {@link ClientSettings#accessPoints()}. */
        public Builder accessPoints(Map<String, String> value) {
            this.accessPoints = Map.copyOf(value);
            return this;
        }

        /**
         * @throws IllegalArgumentException if the credentials do not go together ({@link
         *     CredentialSettings.Builder#build()}) or a retry base delay is above the largest retry delay
         */
        public ClientSettings build() {
            if (retryBaseDelay.compareTo(retryMaxDelay) > 0 || throttlingRetryBaseDelay.compareTo(retryMaxDelay) > 0) {
                throw new IllegalArgumentException("retry base delays " + retryBaseDelay + " and "
                        + throttlingRetryBaseDelay + " must not exceed the largest retry delay " + retryMaxDelay);
            }
            return new ClientSettings(this);
        }
    }
}
