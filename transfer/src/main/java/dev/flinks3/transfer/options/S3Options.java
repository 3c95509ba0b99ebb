package dev.flinks3.transfer.options;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.CredentialSettings;
import dev.flinks3.transfer.EncryptionSettings;
import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.read.ReadPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The options of the S3 side: every key whose value goes into {@code transfer}'s settings ({@link ClientSettings},
 * {@link CredentialSettings}, {@link UploadSettings}, {@link ReadSettings}, {@link EncryptionSettings}), each
 * declared once here (see {@link Option} for what a declaration holds).
 *
 * <p>Each key that Flink's own {@code flink-s3-fs-native} 2.3.0 reads keeps its key and meaning. The spellings that
 * {@code flink-s3-fs-hadoop} ({@code fs.s3a.*}, {@code s3a.*} and the {@code s3.*} keys it mirrors to {@code
 * fs.s3a.*}) and {@code flink-s3-fs-presto} ({@code presto.s3.*} and the {@code s3.*} keys it mirrors) use for the
 * same setting are fallback keys, so a configuration written for either plugin works unchanged.
 *
 * <p>Declare an option of the S3 side here, in the group it belongs to:
 *
 * <pre>{@code
 * public static final Option<Boolean> EXPECT_CONTINUE_ENABLED = OPTIONS.key("s3.expect-continue.enabled")
 *         .hadoop("connection.expect.continue")               // fallback keys, in lookup order
 *         .sets(ClientSettings.EXPECT_CONTINUE_ENABLED,     // type, default and range: the setting's
 *                 "Send 'Expect: 100-continue' with PutObject and UploadPart, ...");
 * }</pre>
 *
 * then make it a Flink option in the filesystem module's {@code S3ConfigOptions}. An option declared with {@link
 * Option.Builder#sets} is read, checked and set in its setting there, in one loop; one declared otherwise is read
 * by the settings factory's own code. A description may name other keys as text (a constant declared below this
 * one is not yet there); every other place takes a key from its constant here.
 */
public final class S3Options {

    private static final OptionCatalog OPTIONS = new OptionCatalog();

    /** Storage classes whose objects a GET cannot read until restored (S3 user guide, "Storage classes"). */
    private static final Set<String> ARCHIVE_STORAGE_CLASSES = Set.of("GLACIER", "DEEP_ARCHIVE");

    private S3Options() {}

    /** Every option of the S3 side, in declaration order. */
    public static List<Option<?>> all() {
        return OPTIONS.all();
    }

    // ---- endpoint and addressing ------------------------------------------------------------

    public static final Option<String> ENDPOINT = OPTIONS.key("s3.endpoint")
            .hadoop("endpoint")
            .presto("endpoint")
            .text(
                    null,
                    "an http:// or https:// URL with a host, or a host[:port]",
                    "Custom S3 endpoint (MinIO, Ceph, a VPC endpoint), e.g. http://minio:9000. Without a scheme,"
                            + " https:// is assumed, or http:// when 's3.ssl.enabled' is false (as S3A and Presto"
                            + " do). Unset: AWS's regional endpoint.");

    public static final Option<Boolean> SSL_ENABLED = OPTIONS.key("s3.ssl.enabled")
            .presto("ssl.enabled")
            .hadoop("connection.ssl.enabled")
            .flag(true, "Scheme used for an 's3.endpoint' given without one: https when true, http when false.");

    public static final Option<String> REGION = OPTIONS.key("s3.region")
            .hadoop("endpoint.region")
            .text(
                    null,
                    "a region name of letters, digits, '-' and '_', e.g. us-east-1",
                    "AWS region to sign requests for. Unset: the SDK's default region chain (AWS_REGION, profile,"
                            + " instance metadata); with a custom endpoint and no region, requests are signed for "
                            + ClientSettings.DEFAULT_SIGNING_REGION + ".");

    public static final Option<Boolean> PATH_STYLE_ACCESS = OPTIONS.key("s3.path-style-access")
            .keys("s3.path.style.access")
            .hadoop("path.style.access")
            .presto("path-style-access", "path.style.access")
            .sets(
                    ClientSettings.PATH_STYLE_ACCESS,
                    "Address buckets as endpoint/bucket/key instead of bucket.endpoint/key; needed by most"
                            + " S3-compatible servers (MinIO, Ceph, S3Proxy).");

    // ---- credentials --------------------------------------------------------------------------

    public static final Option<String> ACCESS_KEY = OPTIONS.key("s3.access-key")
            .keys("s3.access.key")
            .hadoop("access.key")
            .presto("access-key", "access.key")
            .text(
                    null,
                    "-",
                    "Static AWS access key id; needs 's3.secret-key'. Unset: the credential providers of"
                            + " 'fs.s3.aws.credentials.provider', or the SDK's default chain.");

    public static final Option<String> SECRET_KEY = OPTIONS.key("s3.secret-key")
            .keys("s3.secret.key")
            .hadoop("secret.key")
            .presto("secret-key", "secret.key")
            .secret()
            .text(null, "-", "Static AWS secret access key; needs 's3.access-key'. Never logged.");

    public static final Option<String> SESSION_TOKEN = OPTIONS.key("s3.session-token")
            .hadoop("session.token")
            .secret()
            .text(
                    null,
                    "-",
                    "Session token of temporary static credentials; needs the access and secret key. Never logged.");

    public static final Option<String> CREDENTIALS_PROVIDER = OPTIONS.key("fs.s3.aws.credentials.provider")
            .hadoop("aws.credentials.provider")
            .presto("credentials-provider")
            .text(
                    null,
                    "class names, comma-separated",
                    "Comma-separated AWS credentials provider classes, tried in order. Accepts SDK v2 class names,"
                            + " their simple names (e.g. 'AnonymousCredentialsProvider'), and the S3A and SDK v1"
                            + " names of the same providers, which are mapped to their SDK v2 equivalents. Unset:"
                            + " static keys if given, else the SDK's default chain (environment, profile, web"
                            + " identity/IRSA, container and instance metadata).");

    public static final Option<String> ASSUME_ROLE_ARN = OPTIONS.key("s3.assume-role.arn")
            .hadoop("assumed.role.arn")
            .presto("iam-role")
            .text(
                    null,
                    "an IAM role ARN such as arn:aws:iam::123456789012:role/flink",
                    "IAM role to assume through STS with the base credentials, e.g."
                            + " 'arn:aws:iam::123456789012:role/flink'.");

    public static final Option<String> ASSUME_ROLE_EXTERNAL_ID = OPTIONS.key("s3.assume-role.external-id")
            .presto("external-id")
            .text(
                    null,
                    "2 to 1224 letters, digits or any of _+=,.@:/-",
                    "External id passed to STS AssumeRole, for roles whose trust policy requires one.");

    public static final Option<String> ASSUME_ROLE_SESSION_NAME = OPTIONS.key("s3.assume-role.session-name")
            .hadoop("assumed.role.session.name")
            .text(
                    CredentialSettings.DEFAULT_ASSUME_ROLE_SESSION_NAME,
                    "2 to 64 letters, digits or any of _+=,.@-",
                    "Session name of the assumed role, as it appears in CloudTrail.");

    /**
     * Text because the native plugin takes whole seconds ({@code 3600}) while S3A takes a duration with unit
     * ({@code 1h}); both are accepted.
     */
    public static final Option<String> ASSUME_ROLE_SESSION_DURATION = OPTIONS.key("s3.assume-role.session-duration")
            .hadoop("assumed.role.session.duration")
            .text(
                    String.valueOf(CredentialSettings.DEFAULT_ASSUME_ROLE_DURATION.getSeconds()),
                    "whole seconds or a duration with unit (e.g. 1h) from "
                            + Option.durationText(CredentialSettings.MIN_ASSUME_ROLE_DURATION) + " to "
                            + Option.durationText(CredentialSettings.MAX_ASSUME_ROLE_DURATION),
                    "Lifetime of the assumed-role session: whole seconds (as the native plugin) or a duration with"
                            + " unit such as '1h' (as S3A).");

    // ---- HTTP client, timeouts, retries ---------------------------------------------------------

    public static final Option<ClientSettings.ClientType> CLIENT = OPTIONS.key("s3.client")
            .sets(
                    ClientSettings.CLIENT,
                    "S3 client: 'sdk' (the SDK's asynchronous S3 client on 's3.http-client', with this plugin's"
                            + " multipart, read-ahead and bulk-copy engines) or 'crt' (the CRT-based S3 client,"
                            + " aws-c-s3, which signs, retries and checksums in native code; streams from create()"
                            + " larger than one part go up through the S3 Transfer Manager on it, the other engines"
                            + " run on it as they are). With crt, 's3.http-client', the retry delays, the request"
                            + " timeouts, the request metrics and 's3.ssl.ca-file' do not apply; see"
                            + " docs/crt-client.md.");

    public static final Option<ClientSettings.HttpClientType> HTTP_CLIENT = OPTIONS.key("s3.http-client")
            .sets(
                    ClientSettings.HTTP_CLIENT,
                    "Asynchronous HTTP client: 'crt' (AWS Common Runtime) or 'netty' (netty-nio-client). crt is the"
                            + " default: it used 0.6-0.8x the client CPU of netty and restored twice as fast in the"
                            + " filesystem benchmark. The ranged GETs of reads go on the blocking Apache HTTP client"
                            + " with either, with the same connection settings (see 's3.read.direct-get.enabled';"
                            + " with it off, only ranges of 1 MiB or more that a reader streams).");

    public static final Option<Integer> MAX_CONNECTIONS = OPTIONS.key("s3.connection.max")
            // A spelling some configurations written for flink-s3-fs-native use; that plugin (2.3.0) reads no
            // such key, and the async client's concurrency is this.
            .keys("s3.async-client.max-concurrency")
            .hadoop("connection.maximum")
            .presto("max-connections")
            .sets(
                    ClientSettings.MAX_CONNECTIONS,
                    "Most concurrent HTTP connections of each of the process's two HTTP clients for one set of"
                            + " connection settings, which every scheme and bucket configuration shares: the"
                            + " asynchronous one (uploads, listings, deletes, HEADs, bulk copies) and the blocking one"
                            + " (GETs a reader streams, positional reads), so at most twice this many to one endpoint."
                            + " With 's3.client: crt', the process's one CRT-based S3 client opens up to this many"
                            + " (a bucket configuration with another value is refused). 's3.async-client.max-concurrency' is a spelling some configurations"
                            + " written for flink-s3-fs-native use; that plugin (2.3.0) does not read it, and the"
                            + " asynchronous client's concurrency it names is this setting.");

    public static final Option<Duration> CONNECTION_TIMEOUT = OPTIONS.key("s3.connection.timeout")
            .hadoop("connection.establish.timeout")
            .presto("connect-timeout")
            .sets(
                    ClientSettings.CONNECTION_TIMEOUT,
                    "Longest wait to establish a TCP/TLS connection. A number without unit is ms.");

    public static final Option<Duration> SOCKET_TIMEOUT = OPTIONS.key("s3.socket.timeout")
            // 's3.connection.timeout' is the connect timeout here, so S3A's socket timeout
            // 'fs.s3a.connection.timeout' is taken only in its s3a./fs.s3a. spellings.
            .hadoopWithoutS3Prefix("connection.timeout")
            .presto("socket-timeout")
            .sets(
                    ClientSettings.SOCKET_TIMEOUT,
                    "Longest wait for the next bytes on an open connection. A number without unit is ms. With the"
                            + " CRT clients ('s3.http-client: crt', 's3.client: crt') it is whole seconds, rounded"
                            + " up, and at least 2 s: their throughput monitor counts seconds and takes no less.");

    public static final Option<Duration> CONNECTION_MAX_IDLE_TIME = OPTIONS.key("s3.connection.max-idle-time")
            .hadoop("connection.idle.time")
            .sets(
                    ClientSettings.CONNECTION_MAX_IDLE_TIME,
                    "Idle time after which a pooled HTTP connection is closed (both HTTP clients). With 's3.client:"
                            + " crt' the CRT-based S3 client manages its own pool and this does not apply.");

    public static final Option<Duration> REQUEST_ATTEMPT_TIMEOUT = OPTIONS.key("s3.request.attempt-timeout")
            .allowedText("> 0, and at least 1 s per MiB of 's3.upload.min.part.size'")
            .sets(
                    ClientSettings.API_CALL_ATTEMPT_TIMEOUT,
                    "Longest one attempt of a request may take before it is abandoned and retried. At least 1 s per"
                            + " MiB of 's3.upload.min.part.size' (one part at 1 MiB/s; the default 2 min covers parts"
                            + " up to 120 MiB), else the configuration is rejected: an attempt that times out is"
                            + " sent again from its first byte, so a shorter timeout would send a part over a slow"
                            + " link until the retries run out. Parts that grow with the part number (every "
                            + UploadSettings.PARTS_PER_SIZE_STEP + " parts) stay within what one attempt sends at"
                            + " 1 MiB/s.");

    public static final Option<Duration> REQUEST_TIMEOUT = OPTIONS.key("s3.request.timeout")
            .sets(ClientSettings.API_CALL_TIMEOUT, "Longest a request may take including all its retries.");

    public static final Option<Integer> MAX_RETRIES = OPTIONS.key("s3.retry.max-num-retries")
            .hadoop("attempts.maximum")
            .presto("max-error-retries")
            .sets(
                    ClientSettings.MAX_RETRIES,
                    "Retries after the first attempt of a request that failed with throttling, a 5xx or a network"
                            + " error (exponential backoff with jitter); 0 disables retries.");

    // ---- uploads ------------------------------------------------------------------------------

    public static final Option<Long> PART_SIZE = OPTIONS.key("s3.upload.min.part.size")
            // A spelling some configurations written for flink-s3-fs-native use; that plugin (2.3.0) reads no
            // such key, and the part size is what it means.
            .keys("s3.upload.part.size")
            .hadoop("multipart.size")
            .presto("multipart.min-part-size")
            .allowedText(Option.sizeText(UploadSettings.MIN_PART_SIZE) + " .. "
                    + Option.sizeText(UploadSettings.MAX_BUFFERED_PART_SIZE)
                    + ", and at most 1 MiB per second of 's3.request.attempt-timeout'")
            .like(
                    UploadSettings.PART_SIZE_BYTES,
                    "Size of one multipart-upload part: the bytes a stream buffers before the part is uploaded in"
                            + " the background. S3 allows up to 5 GiB; each part is buffered in one heap array. A"
                            + " plain number is bytes; units such as '64m' or '64MB' are accepted. A stream closed"
                            + " before one part fills is sent as one PutObject. Needs an 's3.request.attempt-timeout'"
                            + " of at least 1 s per MiB. Bulk copies (restore) size their ranged GETs by"
                            + " 's3.bulk-copy.range-size' instead. 's3.upload.part.size' is a spelling some"
                            + " configurations written for flink-s3-fs-native use; that plugin (2.3.0) does not read"
                            + " it, and the part size is what it names.");

    public static final Option<Integer> MAX_PARTS_IN_FLIGHT = OPTIONS.key("s3.upload.max.concurrent.uploads")
            .hadoop("fast.upload.active.blocks")
            .sets(
                    UploadSettings.MAX_PARTS_IN_FLIGHT_PER_STREAM,
                    "Parts one output stream may have uploading at once; the writer blocks (back-pressure) when all"
                            + " are in flight. A stream holds at most this many parts plus the one being written.");

    public static final Option<Long> MAX_BUFFERED_SIZE = OPTIONS.key("s3.upload.max-buffered-size")
            .defaultText("1 GiB or a quarter of the JVM's maximum heap, whichever is smaller (at least two parts)")
            .allowedText(">= " + Option.sizeText(UploadSettings.MIN_PART_SIZE) + " and >= the part size")
            .like(
                    UploadSettings.MAX_BUFFERED_BYTES_PER_PROCESS,
                    "Bytes all output streams of the process may hold in part buffers together, counted as the"
                            + " heap the buffers take (with G1 a buffer of half a region or more takes whole"
                            + " regions: an 8 MiB part costs 9 MiB on 1 MiB regions). Writers block beyond it while"
                            + " parts are in flight. If the buffers being written alone exceed it (more files open at"
                            + " once than it holds parts for), writers go on beyond it rather than wait forever, and"
                            + " a warning is logged once.");

    public static final Option<Boolean> UNIFORM_PARTS = OPTIONS.key("s3.upload.uniform-parts")
            .defaultText("true where the endpoint's host ends with '" + UploadSettings.R2_HOST_SUFFIX + "', else false")
            .flag(
                    null,
                    "Give every part of an upload but the last the same size, 's3.upload.min.part.size': the part"
                            + " size then does not grow after " + UploadSettings.PARTS_PER_SIZE_STEP + " parts"
                            + " (objects reach 10,000 parts of that size), and a persist of the recoverable writer"
                            + " keeps a short buffer as a tail object instead of sending it as a part. Cloudflare R2"
                            + " refuses to complete uploads whose parts differ in size (InvalidPart).");

    public static final Option<Boolean> CONDITIONAL_WRITES_ENABLED = OPTIONS.key("s3.conditional-writes.enabled")
            .sets(
                    UploadSettings.CONDITIONAL_WRITES_ENABLED,
                    "Create files with WriteMode.NO_OVERWRITE as conditional writes (If-None-Match: *), which"
                            + " cannot race. Disable for servers without conditional writes; a HEAD request then"
                            + " checks the key first.");

    public static final Option<Boolean> CHECKSUM_VALIDATION_ENABLED = OPTIONS.key("s3.checksum-validation.enabled")
            .hadoop("checksum.validation")
            .sets(
                    ClientSettings.CHECKSUMS_ENABLED,
                    "Send an integrity checksum with every upload and validate checksums of downloads: each upload"
                            + " carries the CRC32C of its body (x-amz-checksum-crc32c); where the server is found to"
                            + " ignore or reject it, Content-MD5 instead, with one warning; a server that rejects the"
                            + " checksum headers of CreateMultipartUpload or GET gets them no more. false sends no"
                            + " x-amz-checksum-* header and validates no download; uploads still carry Content-MD5.");

    public static final Option<Boolean> CHUNKED_ENCODING_ENABLED = OPTIONS.key("s3.chunked-encoding.enabled")
            .sets(
                    ClientSettings.CHUNKED_ENCODING_ENABLED,
                    "Allow aws-chunked transfer encoding of request bodies. Disable for S3-compatible servers that"
                            + " do not support it.");

    public static final Option<Boolean> EXPECT_CONTINUE_ENABLED = OPTIONS.key("s3.expect-continue.enabled")
            .hadoop("connection.expect.continue")
            .sets(
                    ClientSettings.EXPECT_CONTINUE_ENABLED,
                    "Send 'Expect: 100-continue' with PutObject and UploadPart, so the server can refuse a request"
                            + " before its body is sent. Disable for proxies and servers that mishandle it (a request"
                            + " that hangs or fails before its body). The SDK sends it for bodies of 1 MiB or more"
                            + " only. 's3.client: crt' always sends it with UploadPart and refuses false.");

    // ---- reads and bulk copies ------------------------------------------------------------------

    public static final Option<Long> READ_AHEAD_SIZE = OPTIONS.key("s3.read.ahead-size")
            .hadoop("readahead.range")
            .sets(
                    ReadSettings.READ_AHEAD_BYTES,
                    "Bytes one ranged GET of a sequential reader asks for. After a seek the first GET asks for 64 KiB"
                            + " (or the read's length, if larger) and each next range of a reader that stays"
                            + " sequential is 4x larger, up to this size, so a random reader does not make the"
                            + " server send bytes it drops.");

    public static final Option<Integer> READ_AHEAD_PARALLELISM = OPTIONS.key("s3.read.ahead-parallelism")
            .sets(
                    ReadSettings.READ_AHEAD_PARALLELISM,
                    "Ranged GETs of 's3.read.ahead-size' one input stream keeps in flight ahead of a sequential"
                            + " reader; 1 reads over a single connection. A sequential reader holds up to this many"
                            + " windows (64 MiB with the defaults); positional reads hold at most one block of up to"
                            + " 1 MiB (or 's3.read.ahead-size', if smaller) from the same budget, and only while they"
                            + " walk through a file. All readers of a process share at most 1 GiB or a quarter of"
                            + " the maximum heap of windows, whichever is smaller; a reader that finds fewer than two"
                            + " windows free reads over one connection. The read-ahead starts only after a connection"
                            + " delivered a full range at less than "
                            + ReadPolicy.FAST_CONNECTION_BYTES_PER_SECOND / 1_000_000
                            + " MB/s (S3 gives 50 to 90 MB/s per connection); on a faster one (Ceph or MinIO on the"
                            + " same LAN) the reader stays on one connection, each range "
                            + ReadPolicy.STREAMED_RANGE_GROWTH + "x the one before up to "
                            + (ReadPolicy.MAX_STREAMED_RANGE_BYTES >> 20) + " MiB.");

    public static final Option<Boolean> DIRECT_GETS_ENABLED = OPTIONS.key("s3.read.direct-get.enabled")
            .sets(
                    ReadSettings.DIRECT_GETS_ENABLED,
                    "Send positional reads and the ranges a reader streams without the AWS SDK's request pipeline:"
                            + " signed with the SDK's SigV4 signer and sent on the blocking HTTP client, at less than"
                            + " half the client CPU per small GET. Any answer but a plain 206 Partial Content (an"
                            + " error, a redirect, a server that ignored the range, a broken connection) is sent"
                            + " again through the SDK, which retries and reports it as for every other request. Not"
                            + " used with 's3.client: crt', SSE-C, requester pays, access points or S3 Express"
                            + " directory buckets. false sends every GET through the SDK.");

    public static final Option<Integer> BULK_COPY_MAX_CONCURRENT = OPTIONS.key("s3.bulk-copy.max-concurrent")
            .sets(
                    ReadSettings.BULK_COPY_CONCURRENCY,
                    "Files one bulk copy (RocksDB restore to local disk) downloads at once, and the most ranged GETs"
                            + " it has in flight: a copy of at least this many files fetches each file in GETs of up"
                            + " to 64 MiB (one GET for most state files), a copy of fewer files splits them into"
                            + " ranges of 's3.bulk-copy.range-size' on parallel GETs that fill this many.");

    public static final Option<Long> BULK_COPY_RANGE_SIZE = OPTIONS.key("s3.bulk-copy.range-size")
            .sets(
                    ReadSettings.BULK_COPY_RANGE_BYTES,
                    "Bytes one ranged GET of a bulk copy (RocksDB restore to local disk) asks for when the copy holds"
                            + " fewer files than 's3.bulk-copy.max-concurrent': a larger file is then fetched as"
                            + " several ranges in parallel. With more files, each file comes in GETs of up to 64 MiB"
                            + " (or of this size, if larger). With 's3.client: crt' the CRT-based S3 client splits"
                            + " downloads by its own part size ('s3.upload.min.part.size') and this does not apply.");

    // ---- server-side encryption -----------------------------------------------------------------

    public static final Option<String> SSE_TYPE = OPTIONS.key("s3.sse.type")
            .hadoop("encryption.algorithm", "server-side-encryption-algorithm")
            .presto("sse.type")
            .text(
                    "none",
                    "one of none, sse-s3 (AES256, S3), sse-kms (aws:kms, SSE-KMS, KMS), sse-c (SSE-C)",
                    "Server-side encryption of written objects: 'none'; 'sse-s3' (also 'AES256', 'S3'); 'sse-kms'"
                            + " (also 'aws:kms', 'SSE-KMS', 'KMS'); 'sse-c' (also 'SSE-C').");

    public static final Option<String> SSE_KMS_KEY_ID = OPTIONS.key("s3.sse.kms.key-id")
            .hadoop("encryption.key", "server-side-encryption.key")
            .presto("sse.kms-key-id")
            .text(
                    null,
                    "a KMS key id, ARN or alias; only with sse-kms",
                    "KMS key id, ARN or alias for SSE-KMS; unset uses the bucket's default key (aws/s3). With"
                            + " 'sse-c', S3A's 'fs.s3a.encryption.key' is the customer key, and is read as such.");

    public static final Option<String> SSE_KMS_ENCRYPTION_CONTEXT = OPTIONS.key("s3.sse.kms.encryption-context")
            .hadoop("encryption.context")
            .text(
                    null,
                    "key=value pairs separated by commas, or a JSON object (plain or base64); only with sse-kms",
                    "SSE-KMS encryption context as comma-separated key=value pairs (as S3A), or as JSON, plain or"
                            + " base64.");

    public static final Option<Boolean> SSE_KMS_BUCKET_KEY = OPTIONS.key("s3.sse.kms.bucket-key.enabled")
            .sets(
                    EncryptionSettings.SSE_KMS_BUCKET_KEY,
                    "With 'sse-kms': true asks for an S3 Bucket Key on every request that creates an object"
                            + " (PutObject, CreateMultipartUpload, CopyObject), so S3 derives the objects' keys from a"
                            + " key of the bucket instead of calling KMS for each object: ranged GETs, parts and"
                            + " copies then cost no KMS request each, which keeps positional-read storms under the"
                            + " account's KMS quota. false sends nothing and the bucket's own Bucket Key setting"
                            + " applies. Needs 's3.sse.type: sse-kms'. S3A and Flink's other S3 plugins have no such"
                            + " key.");

    public static final Option<String> SSE_C_KEY = OPTIONS.key("s3.sse.c.key")
            .secret()
            .text(
                    null,
                    "the base64 encoding of a 256-bit (32-byte) AES key; only with sse-c",
                    "Base64 of the 256-bit customer key for 'sse-c'. Never logged.");

    // ---- private networks: trusted CAs and proxy ------------------------------------------------

    public static final Option<String> SSL_CA_FILE = OPTIONS.key("s3.ssl.ca-file")
            .text(
                    null,
                    "a readable file of PEM certificates",
                    "PEM file of the CA certificates (one or more -----BEGIN CERTIFICATE----- blocks) trusted for TLS"
                            + " to the endpoint instead of the default ones, for a store whose certificate a private"
                            + " CA signed; applies to both HTTP clients. Unset: the JVM's trust store"
                            + " (-Djavax.net.ssl.trustStore, read by both clients) if set, else the default CAs.");

    public static final Option<String> PROXY_HOST = OPTIONS.key("s3.proxy.host")
            .hadoop("proxy.host")
            .text(
                    null,
                    "a host name or IP address without scheme or port",
                    "Host of the HTTP proxy S3 requests go through (https endpoints through a CONNECT tunnel)."
                            + " Unset: the JVM's proxy system properties (https.proxyHost for an https endpoint,"
                            + " http.proxyHost for http, with their proxyPort, proxyUser, proxyPassword and"
                            + " http.nonProxyHosts), else the environment variables HTTPS_PROXY (https endpoint) or"
                            + " HTTP_PROXY (http endpoint) and NO_PROXY, else no proxy.");

    public static final Option<Integer> PROXY_PORT = OPTIONS.key("s3.proxy.port")
            .hadoop("proxy.port")
            .defaultText("80 for an http endpoint, else 443 (as S3A)")
            .integer(null, 1, 65_535, "Port of 's3.proxy.host'.");

    public static final Option<String> PROXY_USERNAME = OPTIONS.key("s3.proxy.username")
            .hadoop("proxy.username")
            .text(
                    null,
                    "only with 's3.proxy.host'",
                    "User name for the proxy's basic authentication; needs 's3.proxy.host'.");

    public static final Option<String> PROXY_PASSWORD = OPTIONS.key("s3.proxy.password")
            .hadoop("proxy.password")
            .secret()
            .text(
                    null,
                    "only with 's3.proxy.username'",
                    "Password for the proxy's basic authentication; needs 's3.proxy.username'. Never logged.");

    public static final Option<String> PROXY_NON_PROXY_HOSTS = OPTIONS.key("s3.proxy.non-proxy-hosts")
            .text(
                    null,
                    "host names or IP addresses, '*.domain' or '*', separated by ',' or '|'",
                    "Hosts reached without the proxy, separated by ',' or '|': a host name or IP address, '*.domain'"
                            + " for the hosts under a domain, or '*' for all (which also turns off a proxy of the"
                            + " system properties or environment). Replaces http.nonProxyHosts and NO_PROXY.");

    // ---- bucket policy: storage class, requester pays, access points ---------------------------

    public static final Option<String> STORAGE_CLASS = OPTIONS.key("s3.storage-class")
            .hadoop("create.storage.class")
            .presto("storage-class")
            .oneOf(
                    null,
                    UploadSettings.STORAGE_CLASSES.stream()
                            .filter(storageClass -> !ARCHIVE_STORAGE_CLASSES.contains(storageClass))
                            .collect(Collectors.toList()),
                    "Storage class of written objects (x-amz-storage-class on PutObject, CreateMultipartUpload and"
                            + " CopyObject), a value of S3's StorageClass matched ignoring case. "
                            + String.join(
                                    " and ",
                                    ARCHIVE_STORAGE_CLASSES.stream().sorted().collect(Collectors.toList()))
                            + " are refused: their objects must be restored before a GET, so checkpoints written"
                            + " there could not be read at a restore (a lifecycle rule can archive old objects)."
                            + " Unset: the bucket's default.");

    public static final Option<Boolean> REQUESTER_PAYS_ENABLED = OPTIONS.key("s3.requester-pays.enabled")
            .hadoop("requester.pays.enabled")
            .sets(
                    ClientSettings.REQUESTER_PAYS,
                    "Send x-amz-request-payer: requester on every request, as buckets with Requester Pays enabled"
                            + " ask for; the requester's account is charged for requests and transfer.");

    public static final Option<String> ACCESS_POINT_ARN = OPTIONS.key("s3.accesspoint.arn")
            .hadoopWithoutS3Prefix("accesspoint.arn")
            .text(
                    null,
                    "per bucket only; an access point ARN such as"
                            + " arn:aws:s3:us-east-1:123456789012:accesspoint/flink, or an access point alias",
                    "Per bucket only ('s3.bucket.<bucket>.accesspoint.arn'): the access point ARN"
                            + " (arn:aws:s3:<region>:<account>:accesspoint/<name>) or alias that requests for"
                            + " s3://<bucket>/ are sent to; the SDK signs for it and resolves its endpoint.");

    /**
     * Whether {@code storageClass}, one of {@link UploadSettings#STORAGE_CLASSES}, is one whose objects must be
     * restored before they can be read, which {@link #STORAGE_CLASS} refuses.
     */
    public static boolean archived(String storageClass) {
        return ARCHIVE_STORAGE_CLASSES.contains(storageClass);
    }
}
