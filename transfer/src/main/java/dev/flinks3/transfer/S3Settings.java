package dev.flinks3.transfer;

import dev.flinks3.transfer.sdk.S3RetryStrategy;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * Everything the S3 side needs to know, parsed once from the Flink configuration and never changed:
 * endpoint, region, credentials, addressing, pool sizes, timeouts, retries, part sizes, buffering and
 * server-side encryption. Hot code reads only this object.
 *
 * <p>Built with {@link #builder()}; {@link Builder#build()} checks ranges and combinations and
 * throws {@link IllegalArgumentException} naming the setting, the value and what is allowed. Secrets
 * are held as {@link Secret} and {@link #toString()} never shows them. Immutable and thread-safe.
 */
public final class S3Settings {

    /** S3's smallest part size (except for the last part): 5 MiB. */
    public static final long MIN_PART_SIZE = 5L * 1024 * 1024;
    /** S3's largest part size: 5 GiB. */
    public static final long MAX_PART_SIZE = 5L * 1024 * 1024 * 1024;
    /** Region used for signing when a custom endpoint is given without a region. */
    public static final String DEFAULT_SIGNING_REGION = "us-east-1";

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

    /** Server-side encryption applied to every object written (and, for SSE-C, read). */
    public enum SseType {
        NONE,
        /** SSE-S3, {@code x-amz-server-side-encryption: AES256}. */
        SSE_S3,
        /** SSE-KMS, {@code x-amz-server-side-encryption: aws:kms} with an optional key id. */
        SSE_KMS,
        /** SSE-C, a customer-provided AES-256 key sent with every request on the object. */
        SSE_C
    }

    private final URI endpoint;
    private final String region;
    private final boolean pathStyleAccess;
    private final String accessKey;
    private final Secret secretKey;
    private final Secret sessionToken;
    private final List<String> credentialsProviderClasses;
    private final String assumeRoleArn;
    private final String assumeRoleExternalId;
    private final String assumeRoleSessionName;
    private final Duration assumeRoleDuration;
    private final ClientType client;
    private final HttpClientType httpClient;
    private final int maxConnections;
    private final Duration connectionTimeout;
    private final Duration socketTimeout;
    private final Duration apiCallAttemptTimeout;
    private final Duration apiCallTimeout;
    private final int maxRetries;
    private final Duration retryBaseDelay;
    private final Duration throttlingRetryBaseDelay;
    private final Duration retryMaxDelay;
    private final long partSizeBytes;
    private final int maxPartsInFlightPerStream;
    private final long maxBufferedBytesPerProcess;
    private final long readAheadBytes;
    private final int readAheadParallelism;
    private final int bulkCopyConcurrency;
    private final SseType sseType;
    private final String sseKmsKeyId;
    private final String sseKmsEncryptionContext;
    private final Secret sseCustomerKey;
    private final boolean checksumsEnabled;
    private final boolean chunkedEncodingEnabled;
    private final boolean conditionalWritesEnabled;
    private final Path sslCaFile;
    private final HttpProxy proxy;
    private final List<String> nonProxyHosts;
    private final String storageClass;
    private final boolean requesterPays;
    private final Map<String, String> accessPoints;

    private S3Settings(Builder b) {
        this.endpoint = b.endpoint;
        this.region = b.region != null ? b.region : (b.endpoint != null ? DEFAULT_SIGNING_REGION : null);
        this.pathStyleAccess = b.pathStyleAccess;
        this.accessKey = b.accessKey;
        this.secretKey = b.secretKey;
        this.sessionToken = b.sessionToken;
        this.credentialsProviderClasses = List.copyOf(b.credentialsProviderClasses);
        this.assumeRoleArn = b.assumeRoleArn;
        this.assumeRoleExternalId = b.assumeRoleExternalId;
        this.assumeRoleSessionName = b.assumeRoleSessionName;
        this.assumeRoleDuration = b.assumeRoleDuration;
        this.client = b.client;
        this.httpClient = b.httpClient;
        this.maxConnections = b.maxConnections;
        this.connectionTimeout = b.connectionTimeout;
        this.socketTimeout = b.socketTimeout;
        this.apiCallAttemptTimeout = b.apiCallAttemptTimeout;
        this.apiCallTimeout = b.apiCallTimeout;
        this.maxRetries = b.maxRetries;
        this.retryBaseDelay = b.retryBaseDelay;
        this.throttlingRetryBaseDelay = b.throttlingRetryBaseDelay;
        this.retryMaxDelay = b.retryMaxDelay;
        this.partSizeBytes = b.partSizeBytes;
        this.maxPartsInFlightPerStream = b.maxPartsInFlightPerStream;
        this.maxBufferedBytesPerProcess = b.maxBufferedBytesPerProcess;
        this.readAheadBytes = b.readAheadBytes;
        this.readAheadParallelism = b.readAheadParallelism;
        this.bulkCopyConcurrency = b.bulkCopyConcurrency;
        this.sseType = b.sseType;
        this.sseKmsKeyId = b.sseKmsKeyId;
        this.sseKmsEncryptionContext = b.sseKmsEncryptionContext;
        this.sseCustomerKey = b.sseCustomerKey;
        this.checksumsEnabled = b.checksumsEnabled;
        this.chunkedEncodingEnabled = b.chunkedEncodingEnabled;
        this.conditionalWritesEnabled = b.conditionalWritesEnabled;
        this.sslCaFile = b.sslCaFile;
        this.proxy = b.proxy;
        this.nonProxyHosts = b.nonProxyHosts == null ? null : List.copyOf(b.nonProxyHosts);
        this.storageClass = b.storageClass;
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

    /** Static access key id, or {@code null} to use the provider list or the default chain. */
    public String accessKey() {
        return accessKey;
    }

    /** Static secret key, or {@code null}. */
    public Secret secretKey() {
        return secretKey;
    }

    /** Session token for temporary static credentials, or {@code null}. */
    public Secret sessionToken() {
        return sessionToken;
    }

    /** Fully qualified class names of SDK v2 {@code AwsCredentialsProvider}s, tried in order; may be empty. */
    public List<String> credentialsProviderClasses() {
        return credentialsProviderClasses;
    }

    /** IAM role to assume through STS with the base credentials, or {@code null}. */
    public String assumeRoleArn() {
        return assumeRoleArn;
    }

    public String assumeRoleExternalId() {
        return assumeRoleExternalId;
    }

    public String assumeRoleSessionName() {
        return assumeRoleSessionName;
    }

    public Duration assumeRoleDuration() {
        return assumeRoleDuration;
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

    public Duration connectionTimeout() {
        return connectionTimeout;
    }

    /** Longest wait for bytes on an open connection. */
    public Duration socketTimeout() {
        return socketTimeout;
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

    /** Size of each multipart part in bytes, 5 MiB..5 GiB. */
    public long partSizeBytes() {
        return partSizeBytes;
    }

    /** Parts one output stream may have uploading at once; the writer blocks past it. */
    public int maxPartsInFlightPerStream() {
        return maxPartsInFlightPerStream;
    }

    /** Bytes all output streams of the process may hold in part buffers together. */
    public long maxBufferedBytesPerProcess() {
        return maxBufferedBytesPerProcess;
    }

    /** Bytes one sequential-read GET asks for ahead of the reader. */
    public long readAheadBytes() {
        return readAheadBytes;
    }

    /**
     * Ranged GETs of {@link #readAheadBytes()} each that one input stream keeps in flight ahead of a
     * sequential reader; 1 reads over a single connection. One stream holds at most this many times
     * {@link #readAheadBytes()} in read-ahead buffers.
     */
    public int readAheadParallelism() {
        return readAheadParallelism;
    }

    /** Files downloaded at once by a bulk copy to local disk. */
    public int bulkCopyConcurrency() {
        return bulkCopyConcurrency;
    }

    public SseType sseType() {
        return sseType;
    }

    /** KMS key id or ARN for SSE-KMS, or {@code null} for the bucket's default key. */
    public String sseKmsKeyId() {
        return sseKmsKeyId;
    }

    /** Base64 JSON encryption context for SSE-KMS, or {@code null}. */
    public String sseKmsEncryptionContext() {
        return sseKmsEncryptionContext;
    }

    /** Base64 AES-256 key for SSE-C, or {@code null}. */
    public Secret sseCustomerKey() {
        return sseCustomerKey;
    }

    /**
     * The storage class of written objects ({@code x-amz-storage-class} on PutObject,
     * CreateMultipartUpload and CopyObject), a value of the SDK's {@code StorageClass}; {@code null}
     * for the bucket's default (STANDARD on AWS).
     */
    public String storageClass() {
        return storageClass;
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

    /** Send a checksum with every upload (CRC32C, or Content-MD5 where ignored) and validate downloads. */
    public boolean checksumsEnabled() {
        return checksumsEnabled;
    }

    /** Allow aws-chunked transfer encoding of request bodies. */
    public boolean chunkedEncodingEnabled() {
        return chunkedEncodingEnabled;
    }

    /** Use {@code If-None-Match: *} for {@code NO_OVERWRITE} creates. */
    public boolean conditionalWritesEnabled() {
        return conditionalWritesEnabled;
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

    /** Every setting except secrets, which show as {@code ******} when set. */
    @Override
    public String toString() {
        return "S3Settings{endpoint=" + endpoint
                + ", region=" + region
                + ", pathStyleAccess=" + pathStyleAccess
                + ", accessKey=" + (accessKey == null ? null : maskAccessKey(accessKey))
                + ", secretKey=" + secretKey
                + ", sessionToken=" + sessionToken
                + ", credentialsProviders=" + credentialsProviderClasses
                + ", assumeRoleArn=" + assumeRoleArn
                + ", client=" + client
                + ", httpClient=" + httpClient
                + ", maxConnections=" + maxConnections
                + ", connectionTimeout=" + connectionTimeout
                + ", socketTimeout=" + socketTimeout
                + ", apiCallAttemptTimeout=" + apiCallAttemptTimeout
                + ", apiCallTimeout=" + apiCallTimeout
                + ", maxRetries=" + maxRetries
                + ", retryBaseDelay=" + retryBaseDelay
                + ", throttlingRetryBaseDelay=" + throttlingRetryBaseDelay
                + ", retryMaxDelay=" + retryMaxDelay
                + ", partSizeBytes=" + partSizeBytes
                + ", maxPartsInFlightPerStream=" + maxPartsInFlightPerStream
                + ", maxBufferedBytesPerProcess=" + maxBufferedBytesPerProcess
                + ", readAheadBytes=" + readAheadBytes
                + ", readAheadParallelism=" + readAheadParallelism
                + ", bulkCopyConcurrency=" + bulkCopyConcurrency
                + ", sseType=" + sseType
                + ", sseKmsKeyId=" + sseKmsKeyId
                + ", sseCustomerKey=" + sseCustomerKey
                + ", checksums=" + checksumsEnabled
                + ", chunkedEncoding=" + chunkedEncodingEnabled
                + ", conditionalWrites=" + conditionalWritesEnabled
                + ", sslCaFile=" + sslCaFile
                + ", proxy=" + proxy
                + ", nonProxyHosts=" + nonProxyHosts
                + (storageClass == null ? "" : ", storageClass=" + storageClass)
                + (requesterPays ? ", requesterPays=true" : "")
                + (accessPoints.isEmpty() ? "" : ", accessPoints=" + accessPoints)
                + "}";
    }

    private static String maskAccessKey(String key) {
        return key.length() <= 4 ? "****" : key.substring(0, 4) + "****";
    }

    /** Collects settings; every setter checks its own range, {@link #build()} the combinations. */
    public static final class Builder {
        private URI endpoint;
        private String region;
        private boolean pathStyleAccess;
        private String accessKey;
        private Secret secretKey;
        private Secret sessionToken;
        private List<String> credentialsProviderClasses = List.of();
        private String assumeRoleArn;
        private String assumeRoleExternalId;
        private String assumeRoleSessionName = "flink-s3-fs";
        private Duration assumeRoleDuration = Duration.ofHours(1);
        private ClientType client = ClientType.SDK;
        private HttpClientType httpClient = HttpClientType.CRT;
        private int maxConnections = 96;
        private Duration connectionTimeout = Duration.ofSeconds(10);
        private Duration socketTimeout = Duration.ofSeconds(60);
        private Duration apiCallAttemptTimeout = Duration.ofMinutes(2);
        private Duration apiCallTimeout = Duration.ofMinutes(10);
        private int maxRetries = 10;
        private Duration retryBaseDelay = Duration.ofMillis(S3RetryStrategy.BASE_DELAY_MS);
        private Duration throttlingRetryBaseDelay = Duration.ofMillis(S3RetryStrategy.THROTTLING_BASE_DELAY_MS);
        private Duration retryMaxDelay = Duration.ofMillis(S3RetryStrategy.MAX_DELAY_MS);
        private long partSizeBytes = 8L * 1024 * 1024;
        private int maxPartsInFlightPerStream = 8;
        private long maxBufferedBytesPerProcess = 1024L * 1024 * 1024;
        private long readAheadBytes = 8L * 1024 * 1024;
        private int readAheadParallelism = 8;
        private int bulkCopyConcurrency = 16;
        private SseType sseType = SseType.NONE;
        private String sseKmsKeyId;
        private String sseKmsEncryptionContext;
        private Secret sseCustomerKey;
        private boolean checksumsEnabled = true;
        private boolean chunkedEncodingEnabled = true;
        private boolean conditionalWritesEnabled = true;
        private Path sslCaFile;
        private HttpProxy proxy;
        private List<String> nonProxyHosts;
        private String storageClass;
        private boolean requesterPays;
        private Map<String, String> accessPoints = Map.of();

        private Builder() {}

        private Builder(S3Settings s) {
            endpoint = s.endpoint;
            region = s.region;
            pathStyleAccess = s.pathStyleAccess;
            accessKey = s.accessKey;
            secretKey = s.secretKey;
            sessionToken = s.sessionToken;
            credentialsProviderClasses = s.credentialsProviderClasses;
            assumeRoleArn = s.assumeRoleArn;
            assumeRoleExternalId = s.assumeRoleExternalId;
            assumeRoleSessionName = s.assumeRoleSessionName;
            assumeRoleDuration = s.assumeRoleDuration;
            client = s.client;
            httpClient = s.httpClient;
            maxConnections = s.maxConnections;
            connectionTimeout = s.connectionTimeout;
            socketTimeout = s.socketTimeout;
            apiCallAttemptTimeout = s.apiCallAttemptTimeout;
            apiCallTimeout = s.apiCallTimeout;
            maxRetries = s.maxRetries;
            retryBaseDelay = s.retryBaseDelay;
            throttlingRetryBaseDelay = s.throttlingRetryBaseDelay;
            retryMaxDelay = s.retryMaxDelay;
            partSizeBytes = s.partSizeBytes;
            maxPartsInFlightPerStream = s.maxPartsInFlightPerStream;
            maxBufferedBytesPerProcess = s.maxBufferedBytesPerProcess;
            readAheadBytes = s.readAheadBytes;
            readAheadParallelism = s.readAheadParallelism;
            bulkCopyConcurrency = s.bulkCopyConcurrency;
            sseType = s.sseType;
            sseKmsKeyId = s.sseKmsKeyId;
            sseKmsEncryptionContext = s.sseKmsEncryptionContext;
            sseCustomerKey = s.sseCustomerKey;
            checksumsEnabled = s.checksumsEnabled;
            chunkedEncodingEnabled = s.chunkedEncodingEnabled;
            conditionalWritesEnabled = s.conditionalWritesEnabled;
            sslCaFile = s.sslCaFile;
            proxy = s.proxy;
            nonProxyHosts = s.nonProxyHosts;
            storageClass = s.storageClass;
            requesterPays = s.requesterPays;
            accessPoints = s.accessPoints;
        }

        /** @throws IllegalArgumentException unless the URI is absolute http(s) with a host */
        public Builder endpoint(URI value) {
            if (value != null
                    && (value.getScheme() == null
                            || !(value.getScheme().equals("http") || value.getScheme().equals("https"))
                            || value.getHost() == null)) {
                throw new IllegalArgumentException("endpoint '" + value + "' is not an http:// or https:// URL with a host");
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

        public Builder accessKey(String value) {
            this.accessKey = blankToNull(value);
            return this;
        }

        public Builder secretKey(Secret value) {
            this.secretKey = value;
            return this;
        }

        public Builder sessionToken(Secret value) {
            this.sessionToken = value;
            return this;
        }

        public Builder credentialsProviderClasses(List<String> value) {
            this.credentialsProviderClasses = List.copyOf(value);
            return this;
        }

        public Builder assumeRoleArn(String value) {
            this.assumeRoleArn = blankToNull(value);
            return this;
        }

        public Builder assumeRoleExternalId(String value) {
            this.assumeRoleExternalId = blankToNull(value);
            return this;
        }

        public Builder assumeRoleSessionName(String value) {
            this.assumeRoleSessionName = Objects.requireNonNull(value, "assumeRoleSessionName");
            return this;
        }

        /** 15 minutes to 12 hours, as STS allows. */
        public Builder assumeRoleDuration(Duration value) {
            if (value.compareTo(Duration.ofMinutes(15)) < 0 || value.compareTo(Duration.ofHours(12)) > 0) {
                throw new IllegalArgumentException("assume-role duration " + value + " is outside 15 min..12 h");
            }
            this.assumeRoleDuration = value;
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
            this.maxConnections = atLeast("maxConnections", value, 1);
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

        public Builder apiCallAttemptTimeout(Duration value) {
            this.apiCallAttemptTimeout = positive("apiCallAttemptTimeout", value);
            return this;
        }

        public Builder apiCallTimeout(Duration value) {
            this.apiCallTimeout = positive("apiCallTimeout", value);
            return this;
        }

        public Builder maxRetries(int value) {
            this.maxRetries = atLeast("maxRetries", value, 0);
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

        /** @throws IllegalArgumentException outside 5 MiB..5 GiB */
        public Builder partSizeBytes(long value) {
            if (value < MIN_PART_SIZE || value > MAX_PART_SIZE) {
                throw new IllegalArgumentException("part size " + value + " bytes is outside "
                        + MIN_PART_SIZE + " (5 MiB).." + MAX_PART_SIZE + " (5 GiB)");
            }
            this.partSizeBytes = value;
            return this;
        }

        public Builder maxPartsInFlightPerStream(int value) {
            this.maxPartsInFlightPerStream = atLeast("maxPartsInFlightPerStream", value, 1);
            return this;
        }

        public Builder maxBufferedBytesPerProcess(long value) {
            if (value < MIN_PART_SIZE) {
                throw new IllegalArgumentException("process buffer limit " + value + " bytes is below one part ("
                        + MIN_PART_SIZE + " bytes)");
            }
            this.maxBufferedBytesPerProcess = value;
            return this;
        }

        public Builder readAheadBytes(long value) {
            if (value < 1) {
                throw new IllegalArgumentException("read-ahead " + value + " bytes must be at least 1");
            }
            this.readAheadBytes = value;
            return this;
        }

        public Builder readAheadParallelism(int value) {
            this.readAheadParallelism = atLeast("readAheadParallelism", value, 1);
            return this;
        }

        public Builder bulkCopyConcurrency(int value) {
            this.bulkCopyConcurrency = atLeast("bulkCopyConcurrency", value, 1);
            return this;
        }

        public Builder sseType(SseType value) {
            this.sseType = Objects.requireNonNull(value, "sseType");
            return this;
        }

        public Builder sseKmsKeyId(String value) {
            this.sseKmsKeyId = blankToNull(value);
            return this;
        }

        public Builder sseKmsEncryptionContext(String value) {
            this.sseKmsEncryptionContext = blankToNull(value);
            return this;
        }

        public Builder sseCustomerKey(Secret value) {
            this.sseCustomerKey = value;
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

        public Builder conditionalWritesEnabled(boolean value) {
            this.conditionalWritesEnabled = value;
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

        /**
         * The storage class of written objects, or {@code null} for the bucket's default.
         *
         * @throws IllegalArgumentException if the SDK's {@code StorageClass} has no such value
         */
        public Builder storageClass(String value) {
            String v = blankToNull(value);
            if (v != null && StorageClass.fromValue(v) == StorageClass.UNKNOWN_TO_SDK_VERSION) {
                throw new IllegalArgumentException("unknown storage class '" + v + "', allowed: "
                        + StorageClass.knownValues());
            }
            this.storageClass = v;
            return this;
        }

        /** Whether every request carries {@code x-amz-request-payer: requester}. */
        public Builder requesterPays(boolean value) {
            this.requesterPays = value;
            return this;
        }

        /** Bucket name to access point ARN or alias; see {@link S3Settings#accessPoints()}. */
        public Builder accessPoints(Map<String, String> value) {
            this.accessPoints = Map.copyOf(value);
            return this;
        }

        /**
         * Checks combinations and builds.
         *
         * @throws IllegalArgumentException if a secret key is given without an access key (or the
         *     reverse), a session token without them, an SSE-KMS key or context without SSE-KMS,
         *     SSE-C without a customer key (or a customer key without SSE-C), or a buffer limit
         *     smaller than one stream's parts in flight, or a retry base delay above the largest retry delay
         */
        public S3Settings build() {
            if ((accessKey == null) != (secretKey == null)) {
                throw new IllegalArgumentException("access key and secret key must be given together");
            }
            if (sessionToken != null && accessKey == null) {
                throw new IllegalArgumentException("a session token needs an access key and a secret key");
            }
            if ((sseKmsKeyId != null || sseKmsEncryptionContext != null) && sseType != SseType.SSE_KMS) {
                throw new IllegalArgumentException("an SSE-KMS key id or context needs SSE type SSE_KMS, not " + sseType);
            }
            if ((sseCustomerKey != null) != (sseType == SseType.SSE_C)) {
                throw new IllegalArgumentException("SSE-C needs SSE type SSE_C and a customer key together");
            }
            if (retryBaseDelay.compareTo(retryMaxDelay) > 0 || throttlingRetryBaseDelay.compareTo(retryMaxDelay) > 0) {
                throw new IllegalArgumentException("retry base delays " + retryBaseDelay + " and "
                        + throttlingRetryBaseDelay + " must not exceed the largest retry delay " + retryMaxDelay);
            }
            if (maxBufferedBytesPerProcess < partSizeBytes) {
                throw new IllegalArgumentException("process buffer limit " + maxBufferedBytesPerProcess
                        + " bytes is smaller than one part of " + partSizeBytes + " bytes");
            }
            return new S3Settings(this);
        }

        private static int atLeast(String name, int value, int min) {
            if (value < min) {
                throw new IllegalArgumentException(name + " " + value + " must be at least " + min);
            }
            return value;
        }

        private static Duration positive(String name, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " " + value + " must be a positive duration");
            }
            return value;
        }

        private static String blankToNull(String value) {
            return value == null || value.trim().isEmpty() ? null : value.trim();
        }
    }
}
