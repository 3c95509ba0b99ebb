package dev.flinks3.transfer;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What the S3 client is built from: endpoint, region and addressing, credentials, the HTTP client
 * and its pool, timeouts, retries, integrity checksums, TLS trust and proxy, and the bucket-wide
 * request options (requester pays, access points). Read by the client owner and the HTTP client
 * factories only; uploads, reads and encryption have their own settings.
 *
 * <p>Each setting is declared once, as a {@link Setting} constant here with its default and range (the
 * {@code DEFAULT_*} and {@code MAX_*} constants those refer to): the builder starts from and checks against
 * them, and the Flink configuration options of the plugin take their defaults and ranges from them. The
 * credential settings are a part of their own, {@link CredentialSettings}. Immutable and thread-safe.
 */
public final class ClientSettings {

    /** Region used for signing when a custom endpoint is given without a region. */
    public static final String DEFAULT_SIGNING_REGION = "us-east-1";

    /** Default base of the backoff between retries, in ms (full jitter). */
    public static final long DEFAULT_RETRY_BASE_DELAY_MS = 100;
    /** Default base of the backoff after a throttled attempt (503 SlowDown), in ms (half jitter). */
    public static final long DEFAULT_THROTTLING_RETRY_BASE_DELAY_MS = 1_000;
    /** Default longest backoff between retries, in ms. */
    public static final long DEFAULT_RETRY_MAX_DELAY_MS = 20_000;
    /** Most retries of one request that may be configured. */
    public static final int MAX_MAX_RETRIES = 100;

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

    private static final Setting.Group SETTINGS = new Setting.Group(ClientSettings.class);

    /** See {@link #endpoint()}: an absolute http(s) URI with a host, unset by default. */
    public static final Setting<URI> ENDPOINT =
            SETTINGS.value("endpoint", URI.class, null, ClientSettings::httpEndpoint);
    /** See {@link #region()}. */
    public static final Setting<String> REGION = SETTINGS.text("region");
    /** See {@link #pathStyleAccess()}: off by default. */
    public static final Setting<Boolean> PATH_STYLE_ACCESS = SETTINGS.flag("pathStyleAccess", false);
    /** See {@link #client()}. */
    public static final Setting<ClientType> CLIENT = SETTINGS.choice("client", ClientType.class, ClientType.SDK);
    /** See {@link #httpClient()}. */
    public static final Setting<HttpClientType> HTTP_CLIENT =
            SETTINGS.choice("httpClient", HttpClientType.class, HttpClientType.CRT);
    /** See {@link #maxConnections()}: at least 1, 96 by default. */
    public static final Setting<Integer> MAX_CONNECTIONS = SETTINGS.integer("maxConnections", 96, 1, Integer.MAX_VALUE);
    /** See {@link #connectionTimeout()}: 10 s by default. */
    public static final Setting<Duration> CONNECTION_TIMEOUT =
            SETTINGS.positive("connectionTimeout", Duration.ofSeconds(10));
    /** See {@link #socketTimeout()}: 60 s by default. */
    public static final Setting<Duration> SOCKET_TIMEOUT = SETTINGS.positive("socketTimeout", Duration.ofSeconds(60));
    /** See {@link #connectionMaxIdleTime()}: 60 s by default. */
    public static final Setting<Duration> CONNECTION_MAX_IDLE_TIME =
            SETTINGS.positive("connectionMaxIdleTime", Duration.ofSeconds(60));
    /** See {@link #apiCallAttemptTimeout()}: 2 min by default. */
    public static final Setting<Duration> API_CALL_ATTEMPT_TIMEOUT =
            SETTINGS.positive("apiCallAttemptTimeout", Duration.ofMinutes(2));
    /** See {@link #apiCallTimeout()}: 10 min by default. */
    public static final Setting<Duration> API_CALL_TIMEOUT =
            SETTINGS.positive("apiCallTimeout", Duration.ofMinutes(10));
    /** See {@link #maxRetries()}: 0..{@value #MAX_MAX_RETRIES}, 10 by default. */
    public static final Setting<Integer> MAX_RETRIES = SETTINGS.integer("maxRetries", 10, 0, MAX_MAX_RETRIES);
    /** See {@link #retryBaseDelay()}: {@value #DEFAULT_RETRY_BASE_DELAY_MS} ms by default. */
    public static final Setting<Duration> RETRY_BASE_DELAY =
            SETTINGS.positive("retryBaseDelay", Duration.ofMillis(DEFAULT_RETRY_BASE_DELAY_MS));
    /** See {@link #throttlingRetryBaseDelay()}: {@value #DEFAULT_THROTTLING_RETRY_BASE_DELAY_MS} ms by default. */
    public static final Setting<Duration> THROTTLING_RETRY_BASE_DELAY =
            SETTINGS.positive("throttlingRetryBaseDelay", Duration.ofMillis(DEFAULT_THROTTLING_RETRY_BASE_DELAY_MS));
    /** See {@link #retryMaxDelay()}: {@value #DEFAULT_RETRY_MAX_DELAY_MS} ms by default. */
    public static final Setting<Duration> RETRY_MAX_DELAY =
            SETTINGS.positive("retryMaxDelay", Duration.ofMillis(DEFAULT_RETRY_MAX_DELAY_MS));
    /** See {@link #checksumsEnabled()}: on by default. */
    public static final Setting<Boolean> CHECKSUMS_ENABLED = SETTINGS.flag("checksumsEnabled", true);
    /** See {@link #chunkedEncodingEnabled()}: on by default. */
    public static final Setting<Boolean> CHUNKED_ENCODING_ENABLED = SETTINGS.flag("chunkedEncodingEnabled", true);
    /** See {@link #expectContinueEnabled()}: on by default. */
    public static final Setting<Boolean> EXPECT_CONTINUE_ENABLED = SETTINGS.flag("expectContinueEnabled", true);
    /** See {@link #sslCaFile()}: unset by default. */
    public static final Setting<Path> SSL_CA_FILE = SETTINGS.value("sslCaFile", Path.class, null, v -> v);
    /** See {@link #proxy()}: unset by default. */
    public static final Setting<HttpProxy> PROXY = SETTINGS.value("proxy", HttpProxy.class, null, v -> v);
    /** See {@link #nonProxyHosts()}: unset by default. */
    public static final Setting<List<String>> NON_PROXY_HOSTS = SETTINGS.value(
            "nonProxyHosts", Setting.Group.generic(List.class), null, ClientSettings::nonProxyHostPatterns);
    /** See {@link #requesterPays()}: off by default. */
    public static final Setting<Boolean> REQUESTER_PAYS = SETTINGS.flag("requesterPays", false);
    /** See {@link #accessPoints()}: empty by default. */
    public static final Setting<Map<String, String>> ACCESS_POINTS =
            SETTINGS.value("accessPoints", Setting.Group.generic(Map.class), Map.of(), Map::copyOf);

    /** This object's values: a copy of the builder's, with the region filled in, never handed out or changed. */
    private final SettingValues values;

    private final CredentialSettings credentials;

    private ClientSettings(Builder b) {
        this.values = b.values.copy();
        if (values.get(REGION) == null && values.get(ENDPOINT) != null) {
            values.set(REGION, DEFAULT_SIGNING_REGION);
        }
        this.credentials = b.credentials.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding every setting of this object, to derive changed settings from it. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.values = values.copy();
        b.credentials = credentials.toBuilder();
        return b;
    }

    /**
     * The value of {@code setting}, one of this class's constants.
     *
     * @throws IllegalArgumentException for a setting of another part
     */
    public <T> T get(Setting<T> setting) {
        return values.get(setting);
    }

    /** Custom endpoint (MinIO, S3Proxy, a VPC endpoint), or {@code null} for AWS's regional endpoint. */
    public URI endpoint() {
        return get(ENDPOINT);
    }

    /**
     * Region to sign for, or {@code null} to use the SDK's default region chain. Never {@code null}
     * when a custom endpoint is set: it then defaults to {@value #DEFAULT_SIGNING_REGION}.
     */
    public String region() {
        return get(REGION);
    }

    /** Path-style addressing ({@code endpoint/bucket/key}) instead of virtual-hosted style. */
    public boolean pathStyleAccess() {
        return get(PATH_STYLE_ACCESS);
    }

    /** Where the credentials come from. */
    public CredentialSettings credentials() {
        return credentials;
    }

    /** Which S3 client carries the requests. */
    public ClientType client() {
        return get(CLIENT);
    }

    public HttpClientType httpClient() {
        return get(HTTP_CLIENT);
    }

    /** Most concurrent HTTP connections of the process's one client. */
    public int maxConnections() {
        return get(MAX_CONNECTIONS);
    }

    /** Longest wait to establish a TCP/TLS connection. */
    public Duration connectionTimeout() {
        return get(CONNECTION_TIMEOUT);
    }

    /** Longest wait for bytes on an open connection. */
    public Duration socketTimeout() {
        return get(SOCKET_TIMEOUT);
    }

    /** Idle time after which a pooled connection is closed. */
    public Duration connectionMaxIdleTime() {
        return get(CONNECTION_MAX_IDLE_TIME);
    }

    /** Longest one attempt of a request may take before it is abandoned and retried. */
    public Duration apiCallAttemptTimeout() {
        return get(API_CALL_ATTEMPT_TIMEOUT);
    }

    /** Longest a request may take including all retries. */
    public Duration apiCallTimeout() {
        return get(API_CALL_TIMEOUT);
    }

    /** Retries after the first attempt (so attempts = maxRetries + 1). */
    public int maxRetries() {
        return get(MAX_RETRIES);
    }

    /**
     * Base of the exponential backoff (full jitter) before retrying a 5xx, a timeout or a broken
     * connection: the first retry waits up to twice this.
     */
    public Duration retryBaseDelay() {
        return get(RETRY_BASE_DELAY);
    }

    /**
     * Base of the exponential backoff (half jitter) before retrying a throttled request (503, 429):
     * the first retry waits at least half of this.
     */
    public Duration throttlingRetryBaseDelay() {
        return get(THROTTLING_RETRY_BASE_DELAY);
    }

    /** Longest backoff before any retry. */
    public Duration retryMaxDelay() {
        return get(RETRY_MAX_DELAY);
    }

    /** Send a checksum with every upload (CRC32C, or Content-MD5 where ignored) and validate downloads. */
    public boolean checksumsEnabled() {
        return get(CHECKSUMS_ENABLED);
    }

    /** Allow aws-chunked transfer encoding of request bodies. */
    public boolean chunkedEncodingEnabled() {
        return get(CHUNKED_ENCODING_ENABLED);
    }

    /**
     * Send {@code Expect: 100-continue} with PutObject and UploadPart bodies, so a server can refuse a
     * request before its body is sent (RFC 9110, section 10.1.1); off for proxies and servers that
     * mishandle it. The SDK's client sends it for bodies of 1 MiB or more only (its threshold); the
     * CRT-based S3 client sends it with every UploadPart and cannot be told not to.
     */
    public boolean expectContinueEnabled() {
        return get(EXPECT_CONTINUE_ENABLED);
    }

    /**
     * PEM file of the certificates (CAs) trusted for TLS to the endpoint instead of the default ones, or
     * {@code null} for the JVM's trust store ({@code javax.net.ssl.trustStore} when set).
     */
    public Path sslCaFile() {
        return get(SSL_CA_FILE);
    }

    /**
     * The HTTP proxy configured for S3 requests, or {@code null} to take one from the JVM's proxy
     * system properties or the proxy environment variables, if any.
     */
    public HttpProxy proxy() {
        return get(PROXY);
    }

    /**
     * Hosts reached without the proxy ({@code host}, {@code *.domain} or {@code *}), or {@code null}
     * when not configured (then those of the system properties or environment apply).
     */
    public List<String> nonProxyHosts() {
        return get(NON_PROXY_HOSTS);
    }

    /**
     * Whether every request says the requester pays for it ({@code x-amz-request-payer: requester}),
     * as S3 asks for buckets with Requester Pays enabled (S3 user guide, "Using Requester Pays buckets").
     */
    public boolean requesterPays() {
        return get(REQUESTER_PAYS);
    }

    /**
     * Access points to send requests to in place of a bucket: bucket name (as in {@code s3://bucket/})
     * to an access point ARN or alias, which the SDK signs and resolves the endpoint for. Empty for none.
     */
    public Map<String, String> accessPoints() {
        return get(ACCESS_POINTS);
    }

    /** Every setting that is set, then the credentials; secrets show as {@code ******}. */
    @Override
    public String toString() {
        return values + ", " + credentials;
    }

    /** @throws IllegalArgumentException unless {@code null} or an absolute http(s) URI with a host */
    private static URI httpEndpoint(URI value) {
        if (value != null
                && (value.getScheme() == null
                        || !(value.getScheme().equals("http")
                                || value.getScheme().equals("https"))
                        || value.getHost() == null)) {
            throw new IllegalArgumentException(
                    "endpoint '" + value + "' is not an http:// or https:// URL with a host");
        }
        return value;
    }

    /** @throws IllegalArgumentException if a pattern is not a host name, {@code *.domain} or {@code *} */
    private static List<String> nonProxyHostPatterns(List<String> value) {
        if (value != null) {
            value.forEach(NonProxyHosts::check);
        }
        return value == null ? null : List.copyOf(value);
    }

    /** Collects client settings; every setter checks its own range, {@link #build()} the combinations. */
    public static final class Builder {
        private SettingValues values = new SettingValues(SETTINGS);
        private CredentialSettings.Builder credentials = CredentialSettings.builder();

        private Builder() {}

        /**
         * Sets {@code setting}, one of {@link ClientSettings}'s constants, to {@code value}.
         *
         * @throws IllegalArgumentException naming the setting, the value and what is allowed, for a value that is
         *     not allowed, or for a setting of another part
         */
        public <T> Builder set(Setting<T> setting, T value) {
            values.set(setting, value);
            return this;
        }

        /** @throws IllegalArgumentException unless the URI is absolute http(s) with a host */
        public Builder endpoint(URI value) {
            return set(ENDPOINT, value);
        }

        public Builder region(String value) {
            return set(REGION, value);
        }

        public Builder pathStyleAccess(boolean value) {
            return set(PATH_STYLE_ACCESS, value);
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
            return set(CLIENT, value);
        }

        public Builder httpClient(HttpClientType value) {
            return set(HTTP_CLIENT, value);
        }

        public Builder maxConnections(int value) {
            return set(MAX_CONNECTIONS, value);
        }

        public Builder connectionTimeout(Duration value) {
            return set(CONNECTION_TIMEOUT, value);
        }

        public Builder socketTimeout(Duration value) {
            return set(SOCKET_TIMEOUT, value);
        }

        public Builder connectionMaxIdleTime(Duration value) {
            return set(CONNECTION_MAX_IDLE_TIME, value);
        }

        public Builder apiCallAttemptTimeout(Duration value) {
            return set(API_CALL_ATTEMPT_TIMEOUT, value);
        }

        public Builder apiCallTimeout(Duration value) {
            return set(API_CALL_TIMEOUT, value);
        }

        /** @throws IllegalArgumentException outside 0..{@value #MAX_MAX_RETRIES} */
        public Builder maxRetries(int value) {
            return set(MAX_RETRIES, value);
        }

        public Builder retryBaseDelay(Duration value) {
            return set(RETRY_BASE_DELAY, value);
        }

        public Builder throttlingRetryBaseDelay(Duration value) {
            return set(THROTTLING_RETRY_BASE_DELAY, value);
        }

        public Builder retryMaxDelay(Duration value) {
            return set(RETRY_MAX_DELAY, value);
        }

        public Builder checksumsEnabled(boolean value) {
            return set(CHECKSUMS_ENABLED, value);
        }

        public Builder chunkedEncodingEnabled(boolean value) {
            return set(CHUNKED_ENCODING_ENABLED, value);
        }

        /** See {@link ClientSettings#expectContinueEnabled()}. */
        public Builder expectContinueEnabled(boolean value) {
            return set(EXPECT_CONTINUE_ENABLED, value);
        }

        /** PEM file of the CA certificates trusted for the endpoint; {@code null} for the JVM's trust store. */
        public Builder sslCaFile(Path value) {
            return set(SSL_CA_FILE, value);
        }

        /** The HTTP proxy for S3 requests; {@code null} for the system properties' or environment's. */
        public Builder proxy(HttpProxy value) {
            return set(PROXY, value);
        }

        /**
         * Hosts reached without a proxy; {@code null} leaves those of the system properties or
         * environment in force.
         *
         * @throws IllegalArgumentException if a pattern is not a host name, {@code *.domain} or {@code *}
         */
        public Builder nonProxyHosts(List<String> value) {
            return set(NON_PROXY_HOSTS, value);
        }

        /** Whether every request carries {@code x-amz-request-payer: requester}. */
        public Builder requesterPays(boolean value) {
            return set(REQUESTER_PAYS, value);
        }

        /** Bucket name to access point ARN or alias; see {@link ClientSettings#accessPoints()}. */
        public Builder accessPoints(Map<String, String> value) {
            return set(ACCESS_POINTS, value);
        }

        /**
         * @throws IllegalArgumentException if the credentials do not go together ({@link
         *     CredentialSettings.Builder#build()}) or a retry base delay is above the largest retry delay
         */
        public ClientSettings build() {
            Duration retryBaseDelay = values.get(RETRY_BASE_DELAY);
            Duration throttlingRetryBaseDelay = values.get(THROTTLING_RETRY_BASE_DELAY);
            Duration retryMaxDelay = values.get(RETRY_MAX_DELAY);
            if (retryBaseDelay.compareTo(retryMaxDelay) > 0 || throttlingRetryBaseDelay.compareTo(retryMaxDelay) > 0) {
                throw new IllegalArgumentException("retry base delays " + retryBaseDelay + " and "
                        + throttlingRetryBaseDelay + " must not exceed the largest retry delay " + retryMaxDelay);
            }
            return new ClientSettings(this);
        }
    }
}
