package dev.flinks3.fs;

import dev.flinks3.multipart.PartSizing;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.CredentialSettings;
import dev.flinks3.transfer.EncryptionSettings;
import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.Setting;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.read.S3SeekableInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * Every configuration key of the plugin.
 *
 * <p>Each key that Flink's own {@code flink-s3-fs-native} 2.3.0 reads keeps its key and meaning. The
 * spellings that {@code flink-s3-fs-hadoop} ({@code fs.s3a.*}, {@code s3a.*} and the {@code s3.*}
 * keys it mirrors to {@code fs.s3a.*}) and {@code flink-s3-fs-presto} ({@code presto.s3.*} and the
 * {@code s3.*} keys it mirrors) use for the same setting are fallback keys, so a configuration written
 * for either plugin works unchanged. Values are read and validated by {@link S3SettingsFactory}; the
 * ranges are listed in the README's Configuration section.
 *
 * <p>Each option is declared once, here: key, fallback keys and help text, and for an option of a setting of the
 * {@code transfer} module (a {@link Setting} constant of {@link ClientSettings}, {@link UploadSettings}, {@link
 * ReadSettings}, ...) that setting, which gives the option its type, default and range:
 *
 * <pre>{@code
 * public static final ConfigOption<Boolean> EXPECT_CONTINUE_ENABLED = bound(
 *         ClientSettings.EXPECT_CONTINUE_ENABLED,
 *         "s3.expect-continue.enabled",
 *         k -> k.hadoop("connection.expect.continue"),
 *         "Send 'Expect: 100-continue' with PutObject and UploadPart, ...");
 * }</pre>
 *
 * An option declared with {@link #bound} has its value read, checked and set in its setting's part by {@link
 * #bindAll}, in one loop of {@link S3SettingsFactory}; one declared with {@link #declared}, or with {@link
 * #declare} and {@link #ranged} for options of no setting, is read by the factory's own code, because its value is
 * checked against others. The range of a numeric option is read through {@link #range}. Each option registers
 * itself as it is declared, so {@link #all()} lists them in declaration order.
 */
public final class S3ConfigOptions {

    /** The allowed values of a numeric option, both ends included. */
    static final class Range {
        final long min;
        final long max;

        private Range(long min, long max) {
            this.min = min;
            this.max = max;
        }
    }

    /** Ranges by option key; filled by {@link #ranged} as the options below are initialised. */
    private static final Map<String, Range> RANGES = new HashMap<>();

    /** Every option, in declaration order; filled by {@link #declare} as the options below are initialised. */
    private static final List<ConfigOption<?>> DECLARED = new ArrayList<>();

    /** What each option declared with {@link #bound} does with its value, in declaration order. */
    private static final List<BiConsumer<ConfigReader, Parts>> BINDINGS = new ArrayList<>();

    /** The options declared with {@link #bound}, in declaration order. */
    private static final List<ConfigOption<?>> BOUND = new ArrayList<>();

    private S3ConfigOptions() {}

    /**
     * The settings builders a bound option's value is set in: one set per {@link S3SettingsFactory#create}
     * call.
     */
    static final class Parts {
        final ClientSettings.Builder client;
        final UploadSettings.Builder upload;
        final ReadSettings.Builder read;
        final EncryptionSettings.Builder encryption;

        Parts(
                ClientSettings.Builder client,
                UploadSettings.Builder upload,
                ReadSettings.Builder read,
                EncryptionSettings.Builder encryption) {
            this.client = client;
            this.upload = upload;
            this.read = read;
            this.encryption = encryption;
        }

        /**
         * Sets {@code setting} to {@code value} in the builder of the part that declares it.
         *
         * @throws IllegalArgumentException if the value is not allowed, or no builder here takes the setting
         */
        <T> void set(Setting<T> setting, T value) {
            Class<?> part = setting.part();
            if (part == ClientSettings.class) {
                client.set(setting, value);
            } else if (part == CredentialSettings.class) {
                client.credentials(credentials -> credentials.set(setting, value));
            } else if (part == UploadSettings.class) {
                upload.set(setting, value);
            } else if (part == ReadSettings.class) {
                read.set(setting, value);
            } else if (part == EncryptionSettings.class) {
                encryption.set(setting, value);
            } else {
                throw new IllegalArgumentException("no settings builder takes " + setting);
            }
        }
    }

    /** Registers {@code option} (for {@link #all()}) and returns it; its value is read by hand-written code. */
    private static <T> ConfigOption<T> declare(ConfigOption<T> option) {
        DECLARED.add(option);
        return option;
    }

    /** Declares {@code option} with its range {@code [min, max]} and returns the option. */
    private static <T> ConfigOption<T> ranged(ConfigOption<T> option, long min, long max) {
        RANGES.put(option.key(), new Range(min, max));
        return declare(option);
    }

    /**
     * Declares the option of {@code setting} whose value {@link #bindAll} sets in the setting's part: the
     * option's type, default and range are the setting's (by {@link Setting#kind()}: a flag is a boolean option,
     * an integer an int option, bytes a memory-size option, a duration a duration option, a choice an enum
     * option), and a configured value is read and checked by {@link ConfigReader#value}.
     *
     * @param key the option's key
     * @param spellings adds the fallback keys, in lookup order, to the spellings of {@code key}
     * @param description the option's help text
     * @param <O> the option's type, which must be the one {@link Setting#kind()} gives
     * @throws IllegalArgumentException for a setting of {@link Setting.Kind#VALUE}, which no option reads as is
     */
    private static <O, T> ConfigOption<O> bound(
            Setting<T> setting, String key, UnaryOperator<KeySpellings> spellings, String description) {
        ConfigOption<O> option = declared(setting, key, spellings, description);
        BOUND.add(option);
        BINDINGS.add((config, parts) -> parts.set(setting, config.value(option, setting)));
        return option;
    }

    /** {@link #bound} for an option without fallback keys. */
    private static <O, T> ConfigOption<O> bound(Setting<T> setting, String key, String description) {
        return bound(setting, key, UnaryOperator.identity(), description);
    }

    /**
     * Declares the option of {@code setting} as {@link #bound} does, for a value the factory's own code reads
     * because it is checked against other values.
     */
    @SuppressWarnings("unchecked")
    private static <O, T> ConfigOption<O> declared(
            Setting<T> setting, String key, UnaryOperator<KeySpellings> spellings, String description) {
        ConfigOptions.OptionBuilder builder = ConfigOptions.key(key);
        Object defaultValue = setting.defaultValue();
        ConfigOption<?> typed;
        switch (setting.kind()) {
            case FLAG:
                typed = builder.booleanType().defaultValue((Boolean) defaultValue);
                break;
            case INTEGER:
                typed = builder.intType().defaultValue((Integer) defaultValue);
                RANGES.put(key, new Range(setting.min(), setting.max()));
                break;
            case BYTES:
                typed = builder.memoryType().defaultValue(new MemorySize((Long) defaultValue));
                RANGES.put(key, new Range(setting.min(), setting.max()));
                break;
            case DURATION:
                typed = builder.durationType().defaultValue((Duration) defaultValue);
                break;
            case CHOICE:
                typed = choiceOption(builder, setting);
                break;
            default:
                throw new IllegalArgumentException(setting + " is no flag, number, duration or choice");
        }
        return declare((ConfigOption<O>)
                typed.withFallbackKeys(spellings.apply(KeySpellings.of(key)).toArray())
                        .withDescription(description));
    }

    /** An enum option of the setting's type and default. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ConfigOption<?> choiceOption(ConfigOptions.OptionBuilder builder, Setting<?> setting) {
        return builder.enumType((Class) setting.type()).defaultValue(setting.defaultValue());
    }

    /**
     * Reads every option declared with {@link #bound} and sets its value in its setting's part, in declaration
     * order.
     *
     * @throws org.apache.flink.configuration.IllegalConfigurationException for the first value that is not
     *     allowed, naming its key, the value and what is allowed
     */
    static void bindAll(ConfigReader config, Parts parts) {
        for (BiConsumer<ConfigReader, Parts> binding : BINDINGS) {
            binding.accept(config, parts);
        }
    }

    /** The options whose values {@link #bindAll} copies into the settings, in declaration order. */
    static List<ConfigOption<?>> bound() {
        return Collections.unmodifiableList(BOUND);
    }

    /**
     * The declared range of a numeric option.
     *
     * @throws IllegalArgumentException if the option was declared without one
     */
    static Range range(ConfigOption<?> option) {
        Range range = RANGES.get(option.key());
        if (range == null) {
            throw new IllegalArgumentException("option '" + option.key() + "' has no declared range");
        }
        return range;
    }

    // ---- endpoint and addressing ------------------------------------------------------------

    public static final ConfigOption<String> ENDPOINT = declare(ConfigOptions.key("s3.endpoint")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(KeySpellings.of("s3.endpoint")
                    .hadoop("endpoint")
                    .presto("endpoint")
                    .toArray())
            .withDescription("Custom S3 endpoint (MinIO, Ceph, a VPC endpoint), e.g. http://minio:9000."
                    + " Without a scheme, https:// is assumed, or http:// when 's3.ssl.enabled' is false"
                    + " (as S3A and Presto do). Unset: AWS's regional endpoint."));

    public static final ConfigOption<Boolean> SSL_ENABLED = declare(ConfigOptions.key("s3.ssl.enabled")
            .booleanType()
            .defaultValue(true)
            .withFallbackKeys(KeySpellings.of("s3.ssl.enabled")
                    .presto("ssl.enabled")
                    .hadoop("connection.ssl.enabled")
                    .toArray())
            .withDescription("Scheme used for an 's3.endpoint' given without one: https when true, http when false."));

    public static final ConfigOption<String> REGION = declare(ConfigOptions.key("s3.region")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(
                    KeySpellings.of("s3.region").hadoop("endpoint.region").toArray())
            .withDescription("AWS region to sign requests for. Unset: the SDK's default region chain"
                    + " (AWS_REGION, profile, instance metadata); with a custom endpoint and no region,"
                    + " requests are signed for " + ClientSettings.DEFAULT_SIGNING_REGION + "."));

    public static final ConfigOption<Boolean> PATH_STYLE_ACCESS = bound(
            ClientSettings.PATH_STYLE_ACCESS,
            "s3.path-style-access",
            k -> k.keys("s3.path.style.access")
                    .hadoop("path.style.access")
                    .presto("path-style-access", "path.style.access"),
            "Address buckets as endpoint/bucket/key instead of bucket.endpoint/key;"
                    + " needed by most S3-compatible servers (MinIO, Ceph, S3Proxy).");

    // ---- credentials --------------------------------------------------------------------------

    public static final ConfigOption<String> ACCESS_KEY = declare(ConfigOptions.key("s3.access-key")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(KeySpellings.of("s3.access-key")
                    .keys("s3.access.key")
                    .hadoop("access.key")
                    .presto("access-key", "access.key")
                    .toArray())
            .withDescription("Static AWS access key id; needs 's3.secret-key'. Unset: the credential"
                    + " providers of 'fs.s3.aws.credentials.provider', or the SDK's default chain."));

    public static final ConfigOption<String> SECRET_KEY = declare(ConfigOptions.key("s3.secret-key")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(KeySpellings.of("s3.secret-key")
                    .keys("s3.secret.key")
                    .hadoop("secret.key")
                    .presto("secret-key", "secret.key")
                    .toArray())
            .withDescription("Static AWS secret access key; needs 's3.access-key'. Never logged."));

    public static final ConfigOption<String> SESSION_TOKEN = declare(ConfigOptions.key("s3.session-token")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(
                    KeySpellings.of("s3.session-token").hadoop("session.token").toArray())
            .withDescription("Session token of temporary static credentials; needs the access and secret key."
                    + " Never logged."));

    public static final ConfigOption<String> CREDENTIALS_PROVIDER =
            declare(ConfigOptions.key("fs.s3.aws.credentials.provider")
                    .stringType()
                    .noDefaultValue()
                    .withFallbackKeys(KeySpellings.of("fs.s3.aws.credentials.provider")
                            .hadoop("aws.credentials.provider")
                            .presto("credentials-provider")
                            .toArray())
                    .withDescription("Comma-separated AWS credentials provider classes, tried in order. Accepts SDK v2"
                            + " class names, their simple names (e.g. 'AnonymousCredentialsProvider'), and the S3A and"
                            + " SDK v1 names of the same providers, which are mapped to their SDK v2 equivalents."
                            + " Unset: static keys if given, else the SDK's default chain (environment, profile,"
                            + " web identity/IRSA, container and instance metadata)."));

    public static final ConfigOption<String> ASSUME_ROLE_ARN = declare(ConfigOptions.key("s3.assume-role.arn")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(KeySpellings.of("s3.assume-role.arn")
                    .hadoop("assumed.role.arn")
                    .presto("iam-role")
                    .toArray())
            .withDescription("IAM role to assume through STS with the base credentials, e.g."
                    + " 'arn:aws:iam::123456789012:role/flink'."));

    public static final ConfigOption<String> ASSUME_ROLE_EXTERNAL_ID = declare(ConfigOptions.key(
                    "s3.assume-role.external-id")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(KeySpellings.of("s3.assume-role.external-id")
                    .presto("external-id")
                    .toArray())
            .withDescription("External id passed to STS AssumeRole, for roles whose trust policy requires one."));

    public static final ConfigOption<String> ASSUME_ROLE_SESSION_NAME =
            declare(ConfigOptions.key("s3.assume-role.session-name")
                    .stringType()
                    .defaultValue(CredentialSettings.DEFAULT_ASSUME_ROLE_SESSION_NAME)
                    .withFallbackKeys(KeySpellings.of("s3.assume-role.session-name")
                            .hadoop("assumed.role.session.name")
                            .toArray())
                    .withDescription("Session name of the assumed role, as it appears in CloudTrail."));

    /**
     * String-typed because the native plugin takes whole seconds ({@code 3600}) while S3A takes a
     * duration with unit ({@code 1h}); both are accepted.
     */
    public static final ConfigOption<String> ASSUME_ROLE_SESSION_DURATION =
            declare(ConfigOptions.key("s3.assume-role.session-duration")
                    .stringType()
                    .defaultValue(String.valueOf(CredentialSettings.DEFAULT_ASSUME_ROLE_DURATION.getSeconds()))
                    .withFallbackKeys(KeySpellings.of("s3.assume-role.session-duration")
                            .hadoop("assumed.role.session.duration")
                            .toArray())
                    .withDescription("Lifetime of the assumed-role session: whole seconds (as the native plugin) or"
                            + " a duration with unit such as '1h' (as S3A); 15 min to 12 h."));

    // ---- HTTP client, timeouts, retries ---------------------------------------------------------

    public static final ConfigOption<ClientSettings.ClientType> S3_CLIENT = bound(
            ClientSettings.CLIENT,
            "s3.client",
            "S3 client: 'sdk' (the SDK's asynchronous S3 client on 's3.http-client', with this"
                    + " plugin's multipart, read-ahead and bulk-copy engines) or 'crt' (the CRT-based S3 client,"
                    + " aws-c-s3, which signs, retries and checksums in native code; streams from create() larger"
                    + " than one part go up through the S3 Transfer Manager on it, the other engines run on it as"
                    + " they are)."
                    + " With crt, 's3.http-client', the retry delays, the request timeouts, the request metrics and"
                    + " 's3.ssl.ca-file' do not apply; see the README's section on the CRT-based S3 client.");

    public static final ConfigOption<ClientSettings.HttpClientType> HTTP_CLIENT = bound(
            ClientSettings.HTTP_CLIENT,
            "s3.http-client",
            "Asynchronous HTTP client: 'crt' (AWS Common Runtime) or 'netty' (netty-nio-client). "
                    + "crt is the default: it used 0.6-0.8x the client CPU of netty and restored twice as fast "
                    + "in the filesystem benchmark. The ranged GETs of reads go on the blocking Apache HTTP client "
                    + "with either, with the same connection settings (see 's3.read.direct-get.enabled'; with it "
                    + "off, only ranges of 1 MiB or more that a reader streams).");

    public static final ConfigOption<Integer> MAX_CONNECTIONS = bound(
            ClientSettings.MAX_CONNECTIONS,
            "s3.connection.max",
            // A spelling some configurations written for flink-s3-fs-native use; that
            // plugin (2.3.0) reads no such key, and the async client's concurrency is this.
            k -> k.keys("s3.async-client.max-concurrency")
                    .hadoop("connection.maximum")
                    .presto("max-connections"),
            "Most concurrent HTTP connections of the process's one S3 client, shared by"
                    + " uploads, reads and bulk copies. At least 1.");

    public static final ConfigOption<Duration> CONNECTION_TIMEOUT = bound(
            ClientSettings.CONNECTION_TIMEOUT,
            "s3.connection.timeout",
            k -> k.hadoop("connection.establish.timeout").presto("connect-timeout"),
            "Longest wait to establish a TCP/TLS connection. A number without unit is ms.");

    public static final ConfigOption<Duration> SOCKET_TIMEOUT = bound(
            ClientSettings.SOCKET_TIMEOUT,
            "s3.socket.timeout",
            // 's3.connection.timeout' is the connect timeout here, so S3A's socket timeout
            // 'fs.s3a.connection.timeout' is taken only in its s3a./fs.s3a. spellings.
            k -> k.hadoopWithoutS3Prefix("connection.timeout").presto("socket-timeout"),
            "Longest wait for the next bytes on an open connection. A number without unit is ms."
                    + " With the CRT clients ('s3.http-client: crt', 's3.client: crt') it is whole seconds, rounded up,"
                    + " and at least 2 s: their throughput monitor counts seconds and takes no less.");

    public static final ConfigOption<Duration> CONNECTION_MAX_IDLE_TIME = bound(
            ClientSettings.CONNECTION_MAX_IDLE_TIME,
            "s3.connection.max-idle-time",
            k -> k.hadoop("connection.idle.time"),
            "Idle time after which a pooled HTTP connection is closed (both HTTP clients). With"
                    + " 's3.client: crt' the CRT-based S3 client manages its own pool and this does not apply.");

    public static final ConfigOption<Duration> REQUEST_ATTEMPT_TIMEOUT = bound(
            ClientSettings.API_CALL_ATTEMPT_TIMEOUT,
            "s3.request.attempt-timeout",
            "Longest one attempt of a request may take before it is abandoned and retried."
                    + " At least 1 s per MiB of 's3.upload.min.part.size' (one part at 1 MiB/s; the default"
                    + " 2 min covers parts up to 120 MiB), else the configuration is rejected: an attempt"
                    + " that times out is sent again from its first byte, so a shorter timeout would send a"
                    + " part over a slow link until the retries run out. Parts that grow with the part"
                    + " number (every 2000 parts) stay within what one attempt sends at 1 MiB/s.");

    public static final ConfigOption<Duration> REQUEST_TIMEOUT = bound(
            ClientSettings.API_CALL_TIMEOUT,
            "s3.request.timeout",
            "Longest a request may take including all its retries.");

    public static final ConfigOption<Integer> MAX_RETRIES = bound(
            ClientSettings.MAX_RETRIES,
            "s3.retry.max-num-retries",
            k -> k.hadoop("attempts.maximum").presto("max-error-retries"),
            "Retries after the first attempt of a request that failed with throttling, a 5xx"
                    + " or a network error (exponential backoff with jitter); 0 disables retries. 0 to "
                    + ClientSettings.MAX_MAX_RETRIES + ".");

    public static final ConfigOption<Duration> CLOSE_TIMEOUT = declare(ConfigOptions.key("s3.close.timeout")
            .durationType()
            .defaultValue(Duration.ofSeconds(60))
            .withDescription("How long closing the filesystem waits for parts still uploading before it closes the S3 "
                    + "client (uploads still running then fail and their multipart uploads are aborted; one warning"
                    + " says how many bytes)."));

    public static final ConfigOption<Duration> CLIENT_CLOSE_TIMEOUT =
            declare(ConfigOptions.key("s3.client.close.timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "Accepted for compatibility with Flink's native plugin, where it bounds the wait for the S3"
                                    + " client to close; here closing waits 's3.close.timeout' for running uploads and then closes the"
                                    + " client at once, so the value has no effect; a value other than the default is named in one"
                                    + " warning."));

    public static final ConfigOption<Boolean> ASYNC_ENABLED = declare(ConfigOptions.key("s3.async.enabled")
            .booleanType()
            .defaultValue(true)
            .withDescription("Accepted for compatibility with Flink's native plugin; every transfer of this"
                    + " plugin is asynchronous, so the value has no effect; 'false' is named in one warning."));

    // ---- uploads ------------------------------------------------------------------------------

    public static final ConfigOption<MemorySize> PART_SIZE = declared(
            UploadSettings.PART_SIZE_BYTES,
            "s3.upload.min.part.size",
            // A spelling some configurations written for flink-s3-fs-native use; that
            // plugin (2.3.0) reads no such key, and the part size is what it means.
            k -> k.keys("s3.upload.part.size").hadoop("multipart.size").presto("multipart.min-part-size"),
            "Size of one multipart-upload part: the bytes a stream buffers before the part is"
                    + " uploaded in the background. 5 MiB to 1 GiB (S3 allows 5 GiB; each part is buffered in"
                    + " one heap array). A plain number is bytes; units such as"
                    + " '64m' or '64MB' are accepted. A stream closed before one part fills is sent as one"
                    + " PutObject. Needs an 's3.request.attempt-timeout' of at least 1 s per MiB. Bulk copies"
                    + " (restore) size their ranged GETs by 's3.bulk-copy.range-size' instead.");

    public static final ConfigOption<Integer> MAX_PARTS_IN_FLIGHT = bound(
            UploadSettings.MAX_PARTS_IN_FLIGHT_PER_STREAM,
            "s3.upload.max.concurrent.uploads",
            k -> k.hadoop("fast.upload.active.blocks"),
            "Parts one output stream may have uploading at once; the writer blocks"
                    + " (back-pressure) when all are in flight. A stream holds at most this many parts plus"
                    + " the one being written. 1 to " + UploadSettings.MAX_MAX_PARTS_IN_FLIGHT + ".");

    public static final ConfigOption<MemorySize> MAX_BUFFERED_SIZE = declared(
            UploadSettings.MAX_BUFFERED_BYTES_PER_PROCESS,
            "s3.upload.max-buffered-size",
            k -> k,
            "Bytes all output streams of the process may hold in part buffers together,"
                    + " counted as the heap the buffers take (with G1 a buffer of half a region or more takes"
                    + " whole regions: an 8 MiB part costs 9 MiB on 1 MiB regions); when unset, 1 GiB or a quarter of the JVM's maximum heap, whichever is smaller (at least"
                    + " two parts). Writers block beyond it while parts are in flight. If the buffers being written alone"
                    + " exceed it (more files open at once than it holds parts for), writers go on beyond it"
                    + " rather than wait forever, and a warning is logged once. At least one part.");

    public static final ConfigOption<Boolean> UNIFORM_PARTS = declare(ConfigOptions.key("s3.upload.uniform-parts")
            .booleanType()
            .noDefaultValue()
            .withDescription("Give every part of an upload but the last the same size, 's3.upload.min.part.size':"
                    + " the part size then does not grow after " + PartSizing.PARTS_PER_STEP + " parts"
                    + " (objects reach 10,000 parts of that size), and a persist of the recoverable writer keeps"
                    + " a short buffer as a tail object instead of sending it as a part. Cloudflare R2 refuses to"
                    + " complete uploads whose parts differ in size (InvalidPart). Unset: true where the endpoint's"
                    + " host ends with '" + UploadSettings.R2_HOST_SUFFIX + "', false elsewhere."));

    public static final ConfigOption<Boolean> CONDITIONAL_WRITES_ENABLED = bound(
            UploadSettings.CONDITIONAL_WRITES_ENABLED,
            "s3.conditional-writes.enabled",
            "Create files with WriteMode.NO_OVERWRITE as conditional writes"
                    + " (If-None-Match: *), which cannot race. Disable for servers without conditional writes;"
                    + " a HEAD request then checks the key first.");

    public static final ConfigOption<Boolean> CHECKSUM_VALIDATION_ENABLED = bound(
            ClientSettings.CHECKSUMS_ENABLED,
            "s3.checksum-validation.enabled",
            k -> k.hadoop("checksum.validation"),
            "Send an integrity checksum with every upload and validate checksums of downloads:"
                    + " each upload carries the CRC32C of its body (x-amz-checksum-crc32c); where the server is found"
                    + " to ignore or reject it, Content-MD5 instead, with one warning; a server that rejects the"
                    + " checksum headers of CreateMultipartUpload or GET gets them no more. false sends no"
                    + " x-amz-checksum-* header and validates no download; uploads still carry Content-MD5.");

    public static final ConfigOption<Boolean> CHUNKED_ENCODING_ENABLED = bound(
            ClientSettings.CHUNKED_ENCODING_ENABLED,
            "s3.chunked-encoding.enabled",
            "Allow aws-chunked transfer encoding of request bodies. Disable for S3-compatible"
                    + " servers that do not support it.");

    public static final ConfigOption<Boolean> EXPECT_CONTINUE_ENABLED = bound(
            ClientSettings.EXPECT_CONTINUE_ENABLED,
            "s3.expect-continue.enabled",
            k -> k.hadoop("connection.expect.continue"),
            "Send 'Expect: 100-continue' with PutObject and UploadPart, so the server can"
                    + " refuse a request before its body is sent. Disable for proxies and servers that mishandle"
                    + " it (a request that hangs or fails before its body). The SDK sends it for bodies of 1 MiB"
                    + " or more only. 's3.client: crt' always sends it with UploadPart and refuses false.");

    // ---- reads and bulk copies ------------------------------------------------------------------

    public static final ConfigOption<MemorySize> READ_AHEAD_SIZE = bound(
            ReadSettings.READ_AHEAD_BYTES,
            "s3.read.ahead-size",
            k -> k.hadoop("readahead.range"),
            "Bytes one ranged GET of a sequential reader asks for. 64 KiB to 1 GiB. After a seek the"
                    + " first GET asks for 64 KiB (or the read's length, if larger) and each next range of a reader that"
                    + " stays sequential is 4x larger, up to this size, so a random reader does not make the server"
                    + " send bytes it drops.");

    public static final ConfigOption<Integer> READ_AHEAD_PARALLELISM = bound(
            ReadSettings.READ_AHEAD_PARALLELISM,
            "s3.read.ahead-parallelism",
            "Ranged GETs of 's3.read.ahead-size' one input stream keeps in flight ahead of a"
                    + " sequential reader; 1 reads over a single connection. A sequential reader holds up to"
                    + " this many windows (64 MiB with the defaults); positional reads hold at most one block of up"
                    + " to 1 MiB (or 's3.read.ahead-size', if smaller) from the same budget, and only while they walk"
                    + " through a file. All readers of"
                    + " a process share at most 1 GiB or a quarter of the maximum heap of windows, whichever is"
                    + " smaller; a reader that finds fewer than two windows free reads over one connection. The"
                    + " read-ahead starts only after a connection delivered a full range at less than "
                    + S3SeekableInputStream.FAST_CONNECTION_BYTES_PER_SECOND / 1_000_000
                    + " MB/s (S3 gives 50 to 90 MB/s per connection); on a faster one (Ceph or MinIO on the same"
                    + " LAN) the reader stays on one connection, each range "
                    + S3SeekableInputStream.STREAMED_RANGE_GROWTH + "x the one before up to "
                    + (S3SeekableInputStream.MAX_STREAMED_RANGE_BYTES >> 20) + " MiB. 1 to "
                    + ReadSettings.MAX_READ_AHEAD_PARALLELISM + ".");

    public static final ConfigOption<Integer> READ_BUFFER_SIZE = ranged(
            ConfigOptions.key("s3.read.buffer.size")
                    .intType()
                    .defaultValue(256 * 1024)
                    .withDescription("Accepted for compatibility with Flink's native plugin (64 KiB to 4 MiB, in"
                            + " bytes, the native plugin's range, so a value it rejects is rejected here too). Reads here are"
                            + " sized by 's3.read.ahead-size', so the value has no effect; a value other than the default"
                            + " is named in one warning."),
            64 * 1024,
            4 * 1024 * 1024);

    public static final ConfigOption<Boolean> DIRECT_GETS_ENABLED = bound(
            ReadSettings.DIRECT_GETS_ENABLED,
            "s3.read.direct-get.enabled",
            "Send positional reads and the ranges a reader streams without the AWS SDK's request"
                    + " pipeline: signed with the SDK's SigV4 signer and sent on the blocking HTTP client, at less"
                    + " than half the client CPU per small GET. Any answer but a plain 206 Partial Content (an error,"
                    + " a redirect, a server that ignored the range, a broken connection) is sent again through the"
                    + " SDK, which retries and reports it as for every other request. Not used with 's3.client: crt',"
                    + " SSE-C, requester pays, access points or S3 Express directory buckets. false sends every GET"
                    + " through the SDK.");

    public static final ConfigOption<Boolean> DIRECTORY_MARKERS_ENABLED = declare(ConfigOptions.key(
                    "s3.directory-markers.enabled")
            .booleanType()
            .defaultValue(true)
            .withDescription("true: mkdirs writes a directory marker (an empty object 'dir/', as S3A does) so that an"
                    + " empty directory exists and can be listed by every process, at one PutObject and one HeadObject"
                    + " per call. false: mkdirs sends no request; a directory it made exists, lists (empty until"
                    + " something is under it) and can be deleted in this process, and elsewhere a directory exists"
                    + " while an object lies under it, as with Flink's presto and native plugins. With false, ForSt"
                    + " checks the directories it made without a request (with true, each check is a HeadObject and"
                    + " a ListObjectsV2). Markers written by other tools count as directories either way."));

    public static final ConfigOption<Boolean> BULK_COPY_ENABLED = declare(ConfigOptions.key("s3.bulk-copy.enabled")
            .booleanType()
            .defaultValue(true)
            .withDescription("Copy state files to local disk with parallel bulk downloads"
                    + " (PathsCopyingFileSystem, used by RocksDB restore) instead of one stream per file."));

    public static final ConfigOption<Integer> BULK_COPY_MAX_CONCURRENT = bound(
            ReadSettings.BULK_COPY_CONCURRENCY,
            "s3.bulk-copy.max-concurrent",
            "Files one bulk copy (RocksDB restore to local disk) downloads at once, and the most ranged GETs it has in"
                    + " flight: a copy of at least this many files fetches each file in GETs of up to 64 MiB (one GET"
                    + " for most state files), a copy of fewer files splits them into ranges of"
                    + " 's3.bulk-copy.range-size' on parallel GETs that fill this many. 1 to "
                    + ReadSettings.MAX_BULK_COPY_CONCURRENCY + ".");

    public static final ConfigOption<MemorySize> BULK_COPY_RANGE_SIZE = bound(
            ReadSettings.BULK_COPY_RANGE_BYTES,
            "s3.bulk-copy.range-size",
            "Bytes one ranged GET of a bulk copy (RocksDB restore to local disk) asks for when the copy holds fewer"
                    + " files than 's3.bulk-copy.max-concurrent': a larger file is then fetched as several ranges in"
                    + " parallel. With more files, each file comes in GETs of up to 64 MiB (or of this size, if"
                    + " larger). 64 KiB to 1 GiB. With 's3.client: crt' the CRT-based S3 client splits downloads by"
                    + " its own part size ('s3.upload.min.part.size') and this does not apply.");

    // ---- server-side encryption -----------------------------------------------------------------

    public static final ConfigOption<String> SSE_TYPE = declare(ConfigOptions.key("s3.sse.type")
            .stringType()
            .defaultValue("none")
            .withFallbackKeys(KeySpellings.of("s3.sse.type")
                    .hadoop("encryption.algorithm", "server-side-encryption-algorithm")
                    .presto("sse.type")
                    .toArray())
            .withDescription("Server-side encryption of written objects: 'none'; 'sse-s3' (also 'AES256', 'S3');"
                    + " 'sse-kms' (also 'aws:kms', 'SSE-KMS', 'KMS'); 'sse-c' (also 'SSE-C')."));

    public static final ConfigOption<String> SSE_KMS_KEY_ID = declare(ConfigOptions.key("s3.sse.kms.key-id")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(KeySpellings.of("s3.sse.kms.key-id")
                    .hadoop("encryption.key", "server-side-encryption.key")
                    .presto("sse.kms-key-id")
                    .toArray())
            .withDescription("KMS key id, ARN or alias for SSE-KMS; unset uses the bucket's default key (aws/s3)."
                    + " With 'sse-c', S3A's 'fs.s3a.encryption.key' is the customer key, and is read as such."));

    public static final ConfigOption<Boolean> SSE_KMS_CHECK_ON_CREATE = declare(ConfigOptions.key(
                    "s3.sse.kms.check-on-create")
            .booleanType()
            .defaultValue(false)
            .withDescription("Check, when the filesystem of a bucket is created, that multipart uploads work there:"
                    + " a CreateMultipartUpload, one UploadPart and an AbortMultipartUpload of a probe key at the"
                    + " bucket's root. SSE-KMS (from 's3.sse.type' or the bucket's default encryption) with a key"
                    + " policy that lacks kms:Decrypt takes small files and refuses every multipart upload; with the"
                    + " check, creating the filesystem fails at once, naming the KMS permissions, instead of the"
                    + " first large checkpoint file."));

    public static final ConfigOption<String> SSE_KMS_ENCRYPTION_CONTEXT =
            declare(ConfigOptions.key("s3.sse.kms.encryption-context")
                    .stringType()
                    .noDefaultValue()
                    .withFallbackKeys(KeySpellings.of("s3.sse.kms.encryption-context")
                            .hadoop("encryption.context")
                            .toArray())
                    .withDescription("SSE-KMS encryption context as comma-separated key=value pairs (as S3A), or as"
                            + " JSON, plain or base64."));

    public static final ConfigOption<Boolean> SSE_KMS_BUCKET_KEY = bound(
            EncryptionSettings.SSE_KMS_BUCKET_KEY,
            "s3.sse.kms.bucket-key.enabled",
            "With 'sse-kms': true asks for an S3 Bucket Key on every request that creates an object (PutObject,"
                    + " CreateMultipartUpload, CopyObject), so S3 derives the objects' keys from a key of the bucket"
                    + " instead of calling KMS for each object: ranged GETs, parts and copies then cost no KMS"
                    + " request each, which keeps positional-read storms under the account's KMS quota. false sends"
                    + " nothing and the bucket's own Bucket Key setting applies. Needs 's3.sse.type: sse-kms'."
                    + " S3A and Flink's other S3 plugins have no such key.");

    public static final ConfigOption<String> SSE_C_KEY = declare(ConfigOptions.key("s3.sse.c.key")
            .stringType()
            .noDefaultValue()
            .withDescription("Base64 of the 256-bit customer key for 'sse-c'. Never logged."));

    // ---- private networks: trusted CAs and proxy ------------------------------------------------

    public static final ConfigOption<String> SSL_CA_FILE = declare(ConfigOptions.key("s3.ssl.ca-file")
            .stringType()
            .noDefaultValue()
            .withDescription("PEM file of the CA certificates (one or more -----BEGIN CERTIFICATE----- blocks)"
                    + " trusted for TLS to the endpoint instead of the default ones, for a store whose certificate"
                    + " a private CA signed; applies to both HTTP clients. Unset: the JVM's trust store"
                    + " (-Djavax.net.ssl.trustStore, read by both clients) if set, else the default CAs."));

    public static final ConfigOption<String> PROXY_HOST = declare(ConfigOptions.key("s3.proxy.host")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(
                    KeySpellings.of("s3.proxy.host").hadoop("proxy.host").toArray())
            .withDescription("Host of the HTTP proxy S3 requests go through (https endpoints through a CONNECT"
                    + " tunnel). Unset: the JVM's proxy system properties (https.proxyHost for an https endpoint,"
                    + " http.proxyHost for http, with their proxyPort, proxyUser, proxyPassword and"
                    + " http.nonProxyHosts), else the environment variables HTTPS_PROXY (https endpoint) or"
                    + " HTTP_PROXY (http endpoint) and NO_PROXY, else no proxy."));

    public static final ConfigOption<Integer> PROXY_PORT = ranged(
            ConfigOptions.key("s3.proxy.port")
                    .intType()
                    .noDefaultValue()
                    .withFallbackKeys(KeySpellings.of("s3.proxy.port")
                            .hadoop("proxy.port")
                            .toArray())
                    .withDescription(
                            "Port of 's3.proxy.host', 1 to 65535. Unset: 80 for an http endpoint, 443 otherwise"
                                    + " (as S3A)."),
            1,
            65_535);

    public static final ConfigOption<String> PROXY_USERNAME = declare(ConfigOptions.key("s3.proxy.username")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(KeySpellings.of("s3.proxy.username")
                    .hadoop("proxy.username")
                    .toArray())
            .withDescription("User name for the proxy's basic authentication; needs 's3.proxy.host'."));

    public static final ConfigOption<String> PROXY_PASSWORD = declare(ConfigOptions.key("s3.proxy.password")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(KeySpellings.of("s3.proxy.password")
                    .hadoop("proxy.password")
                    .toArray())
            .withDescription(
                    "Password for the proxy's basic authentication; needs 's3.proxy.username'. Never" + " logged."));

    public static final ConfigOption<String> PROXY_NON_PROXY_HOSTS = declare(ConfigOptions.key(
                    "s3.proxy.non-proxy-hosts")
            .stringType()
            .noDefaultValue()
            .withDescription("Hosts reached without the proxy, separated by ',' or '|': a host name or IP address,"
                    + " '*.domain' for the hosts under a domain, or '*' for all (which also turns off a proxy of"
                    + " the system properties or environment). Replaces http.nonProxyHosts and NO_PROXY."));

    // ---- bucket policy: storage class, requester pays, access points ---------------------------

    public static final ConfigOption<String> STORAGE_CLASS = declare(ConfigOptions.key("s3.storage-class")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(KeySpellings.of("s3.storage-class")
                    .hadoop("create.storage.class")
                    .presto("storage-class")
                    .toArray())
            .withDescription("Storage class of written objects (x-amz-storage-class on PutObject,"
                    + " CreateMultipartUpload and CopyObject), a value of S3's StorageClass such as STANDARD_IA,"
                    + " INTELLIGENT_TIERING or GLACIER_IR, matched ignoring case. Unset: the bucket's default."));

    public static final ConfigOption<Boolean> REQUESTER_PAYS_ENABLED = bound(
            ClientSettings.REQUESTER_PAYS,
            "s3.requester-pays.enabled",
            k -> k.hadoop("requester.pays.enabled"),
            "Send x-amz-request-payer: requester on every request, as buckets with Requester"
                    + " Pays enabled ask for; the requester's account is charged for requests and transfer.");

    public static final ConfigOption<String> ACCESS_POINT_ARN = declare(ConfigOptions.key("s3.accesspoint.arn")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys(KeySpellings.of("s3.accesspoint.arn")
                    .hadoopWithoutS3Prefix("accesspoint.arn")
                    .toArray())
            .withDescription("Per bucket only ('s3.bucket.<bucket>.accesspoint.arn'): the access point ARN"
                    + " (arn:aws:s3:<region>:<account>:accesspoint/<name>) or alias that requests for"
                    + " s3://<bucket>/ are sent to; the SDK signs for it and resolves its endpoint."));

    // ---- abandoned uploads -----------------------------------------------------------------------

    public static final ConfigOption<Duration> MULTIPART_PURGE_AGE = declare(ConfigOptions.key("s3.multipart.purge.age")
            .durationType()
            .defaultValue(Duration.ZERO)
            .withDescription("Age after which a multipart upload under the checkpoint or savepoint directory"
                    + " ('execution.checkpointing.dir', 'execution.checkpointing.savepoint-dir' or their older"
                    + " 'state.*' spellings) is aborted when the filesystem of that directory's bucket is created:"
                    + " the streams of TaskManagers killed while a checkpoint uploaded, which nothing else ever"
                    + " completes or aborts. 0 (the default) aborts nothing. Uploads outside those directories,"
                    + " such as a FileSink's part files in progress, are never touched. With 's3.entropy.key' in the"
                    + " directory, the folders before it are purged; a directory at a bucket's root, or with the"
                    + " entropy key in its first folder, is not purged (a warning says so). Pick an age no"
                    + " checkpoint or savepoint takes to write, e.g. '1 d'."));

    // ---- entropy injection ----------------------------------------------------------------------

    public static final ConfigOption<String> ENTROPY_KEY = declare(ConfigOptions.key("s3.entropy.key")
            .stringType()
            .noDefaultValue()
            .withDescription("Marker in checkpoint paths that is replaced by random characters for data files"
                    + " and removed for metadata files (EntropyInjectingFileSystem), spreading keys over S3"
                    + " partitions. Must not contain characters that are special in URIs or paths."));

    public static final ConfigOption<Integer> ENTROPY_LENGTH = ranged(
            ConfigOptions.key("s3.entropy.length")
                    .intType()
                    .defaultValue(4)
                    .withDescription("Number of random characters that replace 's3.entropy.key'. 1 to 64."),
            1,
            64);

    // ---- metrics ------------------------------------------------------------------------------

    public static final ConfigOption<Duration> METRICS_LOG_INTERVAL =
            declare(ConfigOptions.key("s3.metrics.log-interval")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(5))
                    .withDescription("Time between INFO lines that sum up what each filesystem configuration did"
                            + " (requests, retries, throttled attempts, bytes up and down, peak buffered bytes); one more"
                            + " line is logged when it is closed. 0 logs no such lines. The same figures, and more, are"
                            + " platform MBeans in the domain 'dev.flinks3' whatever the value."));

    /** Options whose values are secret: never shown in messages or logs. */
    static final Set<ConfigOption<?>> SECRETS = Set.of(SECRET_KEY, SESSION_TOKEN, SSE_C_KEY, PROXY_PASSWORD);

    /** Every option, in declaration order, which is the order of the README's configuration table. */
    public static List<ConfigOption<?>> all() {
        return Collections.unmodifiableList(DECLARED);
    }
}
