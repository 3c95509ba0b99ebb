package dev.flinks3.fs;

import static dev.flinks3.fs.S3ConfigOptions.*;

import dev.flinks3.multipart.PartSizing;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.CredentialSettings;
import dev.flinks3.transfer.DefaultMemoryLimit;
import dev.flinks3.transfer.EncryptionSettings;
import dev.flinks3.transfer.EncryptionSettings.SseType;
import dev.flinks3.transfer.HttpProxy;
import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.Secret;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.options.Option;
import dev.flinks3.transfer.options.S3Options;
import dev.flinks3.transfer.sdk.TrustedCertificates;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.util.TimeUtils;

/**
 * Builds the one immutable {@link S3Settings} from Flink's {@link Configuration}, reading every key
 * of {@link S3ConfigOptions} in all its spellings.
 *
 * <p>Every value is checked here, when the filesystem factory is configured, so a bad configuration
 * fails at start-up rather than at the first checkpoint. The {@link IllegalConfigurationException}
 * names the key as the user spelled it, the value given (never for secrets) and what is allowed.
 */
public final class S3SettingsFactory {

    /**
     * The slowest upload rate, in bytes per second, at which one attempt must still be able to send a
     * whole part: {@code s3.request.attempt-timeout} must be at least the part size at this rate. An
     * attempt that times out is sent again from its first byte, so a timeout shorter than one part takes
     * on the link fails every attempt, and the part is sent {@code s3.retry.max-num-retries} + 1 times.
     */
    static final long MIN_UPLOAD_BYTES_PER_SECOND = 1L << 20;

    /**
     * An access point ARN (S3, S3 on Outposts, Object Lambda; any partition) or an access point alias,
     * which has the form of a bucket name (S3 user guide, "Using Amazon S3 access points").
     */
    static final Pattern ACCESS_POINT = Pattern.compile(
            "arn:[a-z-]+:s3(-outposts|-object-lambda)?:[a-z0-9-]+:[0-9]{12}:(accesspoint|outpost)[/:][A-Za-z0-9./:-]+"
                    + "|[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

    /**
     * The process-wide part-buffer limit when none is configured: {@link DefaultMemoryLimit} (1 GiB or a
     * quarter of the JVM's maximum heap, whichever is smaller, so a small TaskManager heap is not
     * filled with part buffers), never below two parts.
     *
     * @param partSize the part size in bytes
     * @param maxHeap the JVM's maximum heap in bytes ({@link Runtime#maxMemory()})
     */
    static long defaultBufferLimit(long partSize, long maxHeap) {
        return Math.max(2 * partSize, DefaultMemoryLimit.of(maxHeap));
    }

    /** A proxy host: a DNS name, an IPv4 address or a bracketed IPv6 address. */
    private static final Pattern PROXY_HOST_NAME = Pattern.compile("[A-Za-z0-9_.-]+|\\[[0-9A-Fa-f:.]+\\]");
    /** AWS region names and the names S3-compatible servers use: letters, digits, '-' and '_'. */
    private static final Pattern REGION_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*");
    /** An ARN ("Identifiers for IAM resources"): arn:partition:service:region:account:resource. */
    private static final Pattern ROLE_ARN = Pattern.compile("arn:[^:\\s]+:[^:\\s]+:[^:\\s]*:[^:\\s]*:\\S+");
    /** STS AssumeRole RoleSessionName and ExternalId constraints. */
    private static final Pattern ROLE_SESSION_NAME = Pattern.compile("[\\w+=,.@-]{2,64}");

    private static final Pattern EXTERNAL_ID = Pattern.compile("[\\w+=,.@:/-]{2,1224}");

    private static final Map<String, SseType> SSE_TYPE_NAMES = Map.ofEntries(
            Map.entry("none", SseType.NONE),
            Map.entry("sse-s3", SseType.SSE_S3),
            Map.entry("aes256", SseType.SSE_S3),
            Map.entry("s3", SseType.SSE_S3),
            Map.entry("sse-kms", SseType.SSE_KMS),
            Map.entry("aws:kms", SseType.SSE_KMS),
            Map.entry("kms", SseType.SSE_KMS),
            Map.entry("sse-c", SseType.SSE_C));

    private S3SettingsFactory() {}

    /**
     * @throws IllegalConfigurationException naming the key, the value and what is allowed, for the
     *     first value or combination of values that is not allowed
     */
    public static S3Settings create(Configuration configuration) {
        return create(new ConfigReader(configuration));
    }

    static S3Settings create(ConfigReader config) {
        ClientSettings.Builder client = ClientSettings.builder();
        UploadSettings.Builder upload = UploadSettings.builder();
        ReadSettings.Builder read = ReadSettings.builder();
        EncryptionSettings.Builder encryption = EncryptionSettings.builder();
        URI endpoint = addressing(config, client);
        client.credentials(credentials -> credentials(config, credentials));
        S3ConfigOptions.bindAll(config, new S3ConfigOptions.Parts(client, upload, read, encryption));
        uploads(config, upload, endpoint);
        encryption(config, encryption);
        privateNetwork(config, client, endpoint);
        bucketPolicy(config, client, upload);
        S3Settings settings;
        try {
            settings = S3Settings.of(client.build(), upload.build(), read.build(), encryption.build());
        } catch (IllegalArgumentException e) {
            // The checks above name keys for every combination the builder rejects; this is a safety net.
            throw new IllegalConfigurationException("Invalid S3 configuration: " + e.getMessage(), e);
        }
        checkAttemptCoversPart(config, settings);
        checkCrtClientSupports(config, settings);
        return settings;
    }

    /**
     * The shortest attempt timeout that sends a part of {@code partSizeBytes} at {@link
     * #MIN_UPLOAD_BYTES_PER_SECOND}, in whole seconds rounded up.
     */
    static Duration shortestAttemptTimeout(long partSizeBytes) {
        return Duration.ofSeconds((partSizeBytes + MIN_UPLOAD_BYTES_PER_SECOND - 1) / MIN_UPLOAD_BYTES_PER_SECOND);
    }

    /**
     * The largest part an upload of these settings sends, in bytes: our engine grows parts every
     * {@value PartSizing#PARTS_PER_STEP} parts ({@link PartSizing#largestPartBytes()}); the CRT's Transfer
     * Manager sends parts of the configured size.
     */
    static long largestPartBytes(S3Settings settings) {
        UploadSettings upload = settings.upload();
        if (settings.client().client() == ClientSettings.ClientType.CRT) {
            return upload.partSizeBytes();
        }
        return new PartSizing(
                        upload.partSizeBytes(),
                        upload.maxBufferedBytesPerProcess(),
                        upload.maxPartsInFlightPerStream(),
                        upload.uniformParts(),
                        upload.maxGrownPartBytes())
                .largestPartBytes();
    }

    /**
     * The size grown parts stay within: what one attempt of {@code attemptTimeout} sends at {@link
     * #MIN_UPLOAD_BYTES_PER_SECOND}, in bytes, within {@link UploadSettings#MIN_PART_SIZE}..{@link
     * UploadSettings#MAX_BUFFERED_PART_SIZE}.
     */
    static long maxGrownPartBytes(Duration attemptTimeout) {
        // Capping the seconds first keeps the product from overflowing.
        long seconds = Math.min(
                attemptTimeout.getSeconds(), UploadSettings.MAX_BUFFERED_PART_SIZE / MIN_UPLOAD_BYTES_PER_SECOND);
        return Math.max(UploadSettings.MIN_PART_SIZE, seconds * MIN_UPLOAD_BYTES_PER_SECOND);
    }

    private static void checkAttemptCoversPart(ConfigReader config, S3Settings settings) {
        long largest = largestPartBytes(settings);
        Duration shortest = shortestAttemptTimeout(largest);
        if (settings.client().apiCallAttemptTimeout().compareTo(shortest) >= 0) {
            return;
        }
        // Grown parts stay within what one attempt sends, so only the configured size can be too large.
        throw new IllegalConfigurationException("'" + keyOf(config, REQUEST_ATTEMPT_TIMEOUT) + "' ("
                + TimeUtils.formatWithHighestUnit(settings.client().apiCallAttemptTimeout())
                + ") is too short to send one part of '" + keyOf(config, PART_SIZE) + "' ("
                + Option.sizeText(largest) + ") at "
                + Option.sizeText(MIN_UPLOAD_BYTES_PER_SECOND) + "/s: an attempt that times out is sent"
                + " again from the start, so the part would be sent until the retries run out. Allowed is an"
                + " attempt timeout of at least " + TimeUtils.formatWithHighestUnit(shortest) + " for this part"
                + " size, or smaller parts.");
    }

    /**
     * The CRT-based S3 client trusts the system's CAs only, takes no execution interceptors, which
     * add the storage class, requester pays and access-point routing to requests, and no S3 service
     * configuration, which turns {@code Expect: 100-continue} off.
     */
    private static void checkCrtClientSupports(ConfigReader config, S3Settings settings) {
        ClientSettings client = settings.client();
        if (client.client() != ClientSettings.ClientType.CRT) {
            return;
        }
        if (settings.upload().storageClass() != null
                || client.requesterPays()
                || !client.accessPoints().isEmpty()) {
            throw new IllegalConfigurationException("'" + keyOf(config, STORAGE_CLASS) + "', '"
                    + keyOf(config, REQUESTER_PAYS_ENABLED) + "' and '" + keyOf(config, ACCESS_POINT_ARN)
                    + "' (also per bucket) cannot be used with '" + keyOf(config, S3_CLIENT) + ": crt': the CRT-based"
                    + " S3 client cannot add them to its requests. Allowed: '" + S3Options.CLIENT.key() + ": sdk' with"
                    + " them, or none of them.");
        }
        if (client.sslCaFile() != null) {
            throw new IllegalConfigurationException("'" + keyOf(config, SSL_CA_FILE) + "' (" + client.sslCaFile()
                    + ") cannot be used with '" + keyOf(config, S3_CLIENT) + ": crt': the CRT-based S3 client"
                    + " trusts the system's certificate authorities only. Allowed: '" + S3Options.CLIENT.key()
                    + ": sdk'"
                    + " with the CA file, or no CA file.");
        }
        if (!client.expectContinueEnabled()) {
            throw new IllegalConfigurationException("'" + keyOf(config, EXPECT_CONTINUE_ENABLED) + ": false' cannot"
                    + " be used with '" + keyOf(config, S3_CLIENT) + ": crt': the CRT-based S3 client sends"
                    + " 'Expect: 100-continue' with every UploadPart and cannot be told not to. Allowed:"
                    + " '" + S3Options.CLIENT.key() + ": sdk' with the switch off, or the switch on.");
        }
    }

    /** Sets endpoint, region and addressing; returns the endpoint, or {@code null} for AWS's. */
    private static URI addressing(ConfigReader config, ClientSettings.Builder b) {
        boolean ssl = config.bool(SSL_ENABLED);
        URI endpoint = config.find(ENDPOINT)
                .filter(e -> !e.value.trim().isEmpty())
                .map(e -> {
                    try {
                        return EndpointUri.parse(e.value, ssl);
                    } catch (IllegalArgumentException bad) {
                        throw ConfigReader.invalid(e, S3Options.ENDPOINT.allowedText());
                    }
                })
                .orElse(null);
        b.endpoint(endpoint);
        b.region(matching(config, REGION, REGION_NAME));
        return endpoint;
    }

    private static void credentials(ConfigReader config, CredentialSettings.Builder b) {
        Optional<ConfigReader.Entry> access = nonBlank(config, ACCESS_KEY);
        Optional<ConfigReader.Entry> secret = nonBlank(config, SECRET_KEY);
        if (access.isPresent() != secret.isPresent()) {
            ConfigReader.Entry given = access.orElseGet(secret::get);
            throw new IllegalConfigurationException("'" + given.key + "' is set but "
                    + (access.isPresent()
                            ? "no secret key ('" + config.name(SECRET_KEY) + "')"
                            : "no access key ('" + config.name(ACCESS_KEY) + "')")
                    + ": static credentials need both.");
        }
        Optional<ConfigReader.Entry> token = nonBlank(config, SESSION_TOKEN);
        if (token.isPresent() && access.isEmpty()) {
            throw new IllegalConfigurationException(
                    "'" + token.get().key + "' is set without '" + config.name(ACCESS_KEY) + "' and '"
                            + config.name(SECRET_KEY) + "': a session token belongs to static keys.");
        }
        b.accessKey(access.map(e -> e.value.trim()).orElse(null));
        b.secretKey(secret.map(e -> Secret.ofNullable(e.value.trim())).orElse(null));
        b.sessionToken(token.map(e -> Secret.ofNullable(e.value.trim())).orElse(null));
        b.credentialsProviderClasses(CredentialsProviderNames.toSdkV2(config.string(CREDENTIALS_PROVIDER)));
        b.assumeRoleArn(matching(config, ASSUME_ROLE_ARN, ROLE_ARN));
        b.assumeRoleExternalId(matching(config, ASSUME_ROLE_EXTERNAL_ID, EXTERNAL_ID));
        String sessionName = matching(config, ASSUME_ROLE_SESSION_NAME, ROLE_SESSION_NAME);
        if (sessionName != null) {
            b.assumeRoleSessionName(sessionName);
        }
        b.assumeRoleDuration(roleSessionDuration(config));
    }

    private static Duration roleSessionDuration(ConfigReader config) {
        String allowed = S3Options.ASSUME_ROLE_SESSION_DURATION.allowedText();
        Duration duration = config.parseString(ASSUME_ROLE_SESSION_DURATION, allowed, raw -> {
            String v = raw.trim();
            return v.chars().allMatch(Character::isDigit) && !v.isEmpty()
                    ? Duration.ofSeconds(Long.parseLong(v))
                    : TimeUtils.parseDuration(v);
        });
        if (duration.compareTo(CredentialSettings.MIN_ASSUME_ROLE_DURATION) < 0
                || duration.compareTo(CredentialSettings.MAX_ASSUME_ROLE_DURATION) > 0) {
            throw ConfigReader.invalid(config.find(ASSUME_ROLE_SESSION_DURATION).orElseThrow(), allowed);
        }
        return duration;
    }

    private static void uploads(ConfigReader config, UploadSettings.Builder b, URI endpoint) {
        long partSize = config.bytesInRange(PART_SIZE);
        long maxBuffered = config.find(MAX_BUFFERED_SIZE).isPresent()
                ? config.bytesInRange(MAX_BUFFERED_SIZE)
                : defaultBufferLimit(partSize, Runtime.getRuntime().maxMemory());
        if (maxBuffered < partSize) {
            throw new IllegalConfigurationException("'" + keyOf(config, MAX_BUFFERED_SIZE) + "' ("
                    + maxBuffered + " bytes) is smaller than one part ('" + keyOf(config, PART_SIZE) + "', "
                    + partSize + " bytes): every stream needs at least one part buffer.");
        }
        b.partSizeBytes(partSize);
        b.maxGrownPartBytes(maxGrownPartBytes(config.positiveDuration(REQUEST_ATTEMPT_TIMEOUT)));
        b.maxBufferedBytesPerProcess(maxBuffered);
        b.uniformParts(config.find(UNIFORM_PARTS).isPresent() ? config.bool(UNIFORM_PARTS) : isR2(endpoint));
    }

    /** True for an endpoint of Cloudflare R2, whose uploads need parts of one size. */
    static boolean isR2(URI endpoint) {
        String host = endpoint == null ? null : endpoint.getHost();
        return host != null && host.toLowerCase(Locale.ROOT).endsWith(UploadSettings.R2_HOST_SUFFIX);
    }

    private static void encryption(ConfigReader config, EncryptionSettings.Builder b) {
        SseType type = config.parseString(SSE_TYPE, S3Options.SSE_TYPE.allowedText(), raw -> {
            SseType t = SSE_TYPE_NAMES.get(raw.trim().toLowerCase(Locale.ROOT));
            if (t == null && !raw.trim().isEmpty()) {
                throw new IllegalArgumentException();
            }
            return t == null ? SseType.NONE : t;
        });
        b.sseType(type);
        Optional<ConfigReader.Entry> kmsKey = nonBlank(config, SSE_KMS_KEY_ID);
        Optional<ConfigReader.Entry> context = nonBlank(config, SSE_KMS_ENCRYPTION_CONTEXT);
        Optional<ConfigReader.Entry> customerKey = nonBlank(config, SSE_C_KEY);
        if (type == SseType.SSE_C) {
            // S3A names the SSE-C customer key 'fs.s3a.encryption.key', the same key as the KMS key id.
            Optional<ConfigReader.Entry> s3aKey = kmsKey.filter(e -> e.key.endsWith("encryption.key"));
            ConfigReader.Entry key = customerKey
                    .or(() -> s3aKey)
                    .orElseThrow(() -> new IllegalConfigurationException(
                            "SSE type sse-c needs the customer key in '" + config.name(SSE_C_KEY) + "'."));
            b.sseCustomerKey(Secret.ofNullable(checkCustomerKey(key)));
            return;
        }
        customerKey.ifPresent(e -> {
            throw new IllegalConfigurationException("'" + e.key + "' is set but the SSE type ('"
                    + keyOf(config, SSE_TYPE) + "') is " + type + ", not sse-c.");
        });
        if (type != SseType.SSE_KMS) {
            config.find(SSE_KMS_BUCKET_KEY)
                    .filter(e -> e.value.trim().equalsIgnoreCase("true"))
                    .ifPresent(e -> {
                        throw new IllegalConfigurationException("'" + e.key + "' is '" + e.value.trim()
                                + "' but the SSE type ('"
                                + keyOf(config, SSE_TYPE) + "') is " + type + ", not sse-kms: S3 Bucket Keys are a"
                                + " feature of SSE-KMS.");
                    });
            kmsKey.or(() -> context).ifPresent(e -> {
                throw new IllegalConfigurationException("'" + e.key + "' is set but the SSE type ('"
                        + keyOf(config, SSE_TYPE) + "') is " + type + ", not sse-kms.");
            });
            return;
        }
        b.sseKmsKeyId(kmsKey.map(e -> e.value.trim()).orElse(null));
        context.ifPresent(e -> {
            try {
                b.sseKmsEncryptionContext(KmsEncryptionContext.toHeaderValue(e.value));
            } catch (IllegalArgumentException bad) {
                throw ConfigReader.invalid(e, S3Options.SSE_KMS_ENCRYPTION_CONTEXT.allowedText());
            }
        });
    }

    /** The CA file, the proxy and the non-proxy hosts; {@code endpoint} chooses the proxy's default port. */
    private static void privateNetwork(ConfigReader config, ClientSettings.Builder b, URI endpoint) {
        caFile(config, b);
        proxy(config, b, endpoint);
        nonProxyHosts(config, b);
    }

    private static void caFile(ConfigReader config, ClientSettings.Builder b) {
        nonBlank(config, SSL_CA_FILE).ifPresent(e -> {
            Path file = Path.of(e.value.trim());
            try {
                TrustedCertificates.load(file);
            } catch (IllegalArgumentException bad) {
                throw ConfigReader.invalid(e, S3Options.SSL_CA_FILE.allowedText() + " (" + bad.getMessage() + ")");
            }
            b.sslCaFile(file);
        });
    }

    private static void proxy(ConfigReader config, ClientSettings.Builder b, URI endpoint) {
        Optional<ConfigReader.Entry> host = nonBlank(config, PROXY_HOST);
        Optional<ConfigReader.Entry> user = nonBlank(config, PROXY_USERNAME);
        Optional<ConfigReader.Entry> password = nonBlank(config, PROXY_PASSWORD);
        if (host.isEmpty()) {
            config.find(PROXY_PORT).or(() -> user).or(() -> password).ifPresent(e -> {
                throw new IllegalConfigurationException(
                        "'" + e.key + "' is set but no proxy host ('" + config.name(PROXY_HOST) + "').");
            });
        } else {
            String hostName = host.get().value.trim();
            if (!PROXY_HOST_NAME.matcher(hostName).matches()) {
                throw ConfigReader.invalid(host.get(), S3Options.PROXY_HOST.allowedText());
            }
            if (password.isPresent() && user.isEmpty()) {
                throw new IllegalConfigurationException("'" + password.get().key + "' is set but no proxy user name ('"
                        + config.name(PROXY_USERNAME) + "').");
            }
            int port = config.find(PROXY_PORT).isPresent()
                    ? config.intInRange(PROXY_PORT)
                    : HttpProxy.defaultPort(endpoint == null ? "https" : endpoint.getScheme());
            b.proxy(new HttpProxy(
                    hostName,
                    port,
                    user.map(e -> e.value.trim()).orElse(null),
                    password.map(e -> Secret.ofNullable(e.value)).orElse(null)));
        }
    }

    private static void nonProxyHosts(ConfigReader config, ClientSettings.Builder b) {
        nonBlank(config, PROXY_NON_PROXY_HOSTS).ifPresent(e -> {
            List<String> patterns = new ArrayList<>();
            for (String pattern : e.value.split("[,|]")) {
                if (!pattern.trim().isEmpty()) {
                    patterns.add(pattern.trim());
                }
            }
            try {
                b.nonProxyHosts(patterns);
            } catch (IllegalArgumentException bad) {
                throw ConfigReader.invalid(
                        e, S3Options.PROXY_NON_PROXY_HOSTS.allowedText() + " (" + bad.getMessage() + ")");
            }
        });
    }

    /** Storage class, requester pays and, for a bucket, its access point. */
    private static void bucketPolicy(ConfigReader config, ClientSettings.Builder b, UploadSettings.Builder upload) {
        nonBlank(config, STORAGE_CLASS).ifPresent(e -> {
            String given = e.value.trim();
            String known = UploadSettings.STORAGE_CLASSES.stream()
                    .filter(v -> v.equalsIgnoreCase(given))
                    .findFirst()
                    .orElse(null);
            if (known != null && S3Options.archived(known)) {
                throw ConfigReader.invalid(
                        e,
                        "a storage class whose objects can be read at once: " + known + " objects must be restored"
                                + " (RestoreObject, minutes to hours) before a GET, so checkpoints and files written"
                                + " there could not be read at a restore; use one of "
                                + String.join(", ", S3Options.STORAGE_CLASS.allowedValues())
                                + ", or a lifecycle rule to archive old objects");
            }
            if (known == null || !S3Options.STORAGE_CLASS.allowedValues().contains(known)) {
                throw ConfigReader.invalid(
                        e, "one of " + String.join(", ", S3Options.STORAGE_CLASS.allowedValues()) + " (any case)");
            }
            upload.storageClass(known);
        });
        nonBlank(config, ACCESS_POINT_ARN).ifPresent(e -> {
            if (config.bucket() == null || !e.key.contains(".bucket." + config.bucket() + ".")) {
                throw new IllegalConfigurationException("'" + e.key + "' is set for no bucket: an access point"
                        + " stands for one bucket, so set it as '"
                        + BucketKeys.scoped(ACCESS_POINT_ARN.key(), "<bucket>").orElseThrow() + "'.");
            }
            String accessPoint = e.value.trim();
            if (S3Location.isDirectoryBucket(accessPoint)) {
                throw new IllegalConfigurationException(
                        S3Location.directoryBucketRefusal(accessPoint, "'" + e.key + "'"));
            }
            if (!ACCESS_POINT.matcher(accessPoint).matches()) {
                throw ConfigReader.invalid(e, S3Options.ACCESS_POINT_ARN.allowedText());
            }
            b.accessPoints(Map.of(config.bucket(), accessPoint));
        });
    }

    private static String checkCustomerKey(ConfigReader.Entry key) {
        String value = key.value.trim();
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(value.getBytes(StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            decoded = new byte[0];
        }
        if (decoded.length != 32) {
            // The value is a secret whichever key it came from: never show it.
            throw new IllegalConfigurationException("Invalid value (hidden) for configuration key '" + key.key
                    + "': allowed is the base64 encoding of a 256-bit (32-byte) AES key.");
        }
        return value;
    }

    /**
     * The trimmed value, or {@code null} if unset or blank; a value {@code pattern} does not match fails, naming
     * what the option's declaration allows.
     */
    private static String matching(ConfigReader config, ConfigOption<String> option, Pattern pattern) {
        String value = config.string(option);
        if (value != null && !pattern.matcher(value).matches()) {
            throw ConfigReader.invalid(
                    config.find(option).orElseThrow(),
                    S3ConfigOptions.declaration(option).allowedText());
        }
        return value;
    }

    private static Optional<ConfigReader.Entry> nonBlank(ConfigReader config, ConfigOption<String> option) {
        return config.find(option).filter(e -> !e.value.trim().isEmpty());
    }

    private static String keyOf(ConfigReader config, ConfigOption<?> option) {
        return config.find(option).map(e -> e.key).orElse(config.name(option));
    }
}
