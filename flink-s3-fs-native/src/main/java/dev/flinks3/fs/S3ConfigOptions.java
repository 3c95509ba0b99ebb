package dev.flinks3.fs;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.CredentialSettings;
import dev.flinks3.transfer.EncryptionSettings;
import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.Setting;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.options.Option;
import dev.flinks3.transfer.options.S3Options;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * Every configuration key of the plugin as a Flink {@link ConfigOption}, in the sections and order of the
 * configuration reference ({@code docs/configuration.md}, which a test keeps equal to what these declare).
 *
 * <p><b>Declaring an option.</b> Each option is declared once, as an {@link Option} in a catalog: {@link S3Options}
 * (module {@code transfer}) for a value the S3 side uses, {@link FileSystemOptions} for one only the Flink filesystem
 * uses. The declaration holds the key, the fallback keys (the spellings of Flink's {@code flink-s3-fs-hadoop} and
 * {@code flink-s3-fs-presto} plugins, in lookup order), the type, default, range or allowed values, the description,
 * whether the value is a secret, and, for a value copied as it is into a setting of {@code transfer}, that {@link
 * Setting}, which gives the type, default and range:
 *
 * <pre>{@code
 * // transfer: S3Options
 * public static final Option<Boolean> EXPECT_CONTINUE_ENABLED = OPTIONS.key("s3.expect-continue.enabled")
 *         .hadoop("connection.expect.continue")
 *         .sets(ClientSettings.EXPECT_CONTINUE_ENABLED, "Send 'Expect: 100-continue' with PutObject ...");
 *
 * // here, in its section
 * public static final ConfigOption<Boolean> EXPECT_CONTINUE_ENABLED = UPLOADS.add(S3Options.EXPECT_CONTINUE_ENABLED);
 * }</pre>
 *
 * The second line adds nothing but the section: the Flink option's key, fallback keys, type, default and
 * description come from the declaration (a size is a {@link MemorySize}, a choice an enum option). An option
 * declared with {@code sets(setting, ...)} is then read, checked and set in its setting by {@link #bindAll}, in one
 * loop of {@link S3SettingsFactory}: nothing more to write. An option declared otherwise ({@code like(setting,
 * ...)}, {@code flag}, {@code integer}, {@code duration}, {@code text}, {@code oneOf}) is read by code of its own in
 * {@link S3SettingsFactory} or {@link S3FileSystemSettings}, because its value is checked against others or used by
 * the filesystem only. Messages name keys through the declarations ({@code S3Options.CLIENT.key()}), or, for a value
 * read from the configuration, under the spelling the user wrote ({@link ConfigReader}). Then run {@code
 * ConfigurationReferenceTest} with {@code -Dflinks3.reference.write=true} to rewrite {@code docs/configuration.md}.
 *
 * <p>Each key that Flink's own {@code flink-s3-fs-native} 2.3.0 reads keeps its key and meaning; values are read and
 * validated by {@link S3SettingsFactory} and {@link S3FileSystemSettings}.
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

    /** A titled group of options of the configuration reference, in the order they are added. */
    static final class Section {
        private final String title;
        private final List<ConfigOption<?>> options = new ArrayList<>();

        private Section(String title) {
            this.title = title;
            SECTIONS.add(this);
        }

        /** The title, a heading of the configuration reference. */
        String title() {
            return title;
        }

        /** The options of this section, in the order added. */
        List<ConfigOption<?>> options() {
            return Collections.unmodifiableList(options);
        }

        /** The Flink option of {@code declaration}, added to this section and to {@link #all()}. */
        @SuppressWarnings("unchecked")
        private <O> ConfigOption<O> add(Option<?> declaration) {
            ConfigOption<O> option = (ConfigOption<O>) flinkOption(declaration);
            DECLARATIONS.put(option.key(), declaration);
            ALL.add(option);
            options.add(option);
            return option;
        }
    }

    /** Every section, in the reference's order; filled as the sections below are initialised. */
    private static final List<Section> SECTIONS = new ArrayList<>();

    /** Every option, in the reference's order. */
    private static final List<ConfigOption<?>> ALL = new ArrayList<>();

    /** The declaration of each option, by its key. */
    private static final Map<String, Option<?>> DECLARATIONS = new HashMap<>();

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

    /**
     * The Flink option of a declaration, by its kind: a flag is a boolean option, an integer an int option, bytes
     * a memory-size option, a duration a duration option, a choice an enum option, text a string option.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ConfigOption<?> flinkOption(Option<?> declaration) {
        ConfigOptions.OptionBuilder builder = ConfigOptions.key(declaration.key());
        Object value = declaration.defaultValue();
        ConfigOptions.TypedConfigOptionBuilder<?> typed;
        switch (declaration.kind()) {
            case FLAG:
                typed = builder.booleanType();
                break;
            case INTEGER:
                typed = builder.intType();
                break;
            case BYTES:
                typed = builder.memoryType();
                value = value == null ? null : new MemorySize((Long) value);
                break;
            case DURATION:
                typed = builder.durationType();
                break;
            case CHOICE:
                typed = builder.enumType((Class) declaration.type());
                break;
            default:
                typed = builder.stringType();
        }
        ConfigOption<?> option = value == null
                ? typed.noDefaultValue()
                : ((ConfigOptions.TypedConfigOptionBuilder) typed).defaultValue(value);
        return option.withFallbackKeys(declaration.fallbackKeys().toArray(new String[0]))
                .withDescription(declaration.description());
    }

    /**
     * Reads every option declared to set a {@link Setting} ({@link Option#setting()}) and sets its value there, in
     * the reference's order.
     *
     * @throws org.apache.flink.configuration.IllegalConfigurationException for the first value that is not
     *     allowed, naming its key, the value and what is allowed
     */
    static void bindAll(ConfigReader config, Parts parts) {
        for (ConfigOption<?> option : ALL) {
            bind(config, parts, option, declaration(option));
        }
    }

    private static <T> void bind(ConfigReader config, Parts parts, ConfigOption<?> option, Option<T> declaration) {
        Setting<T> setting = declaration.setting();
        if (setting != null) {
            parts.set(setting, config.value(option, declaration));
        }
    }

    /** The options whose values {@link #bindAll} copies into the settings, in the reference's order. */
    static List<ConfigOption<?>> bound() {
        List<ConfigOption<?>> bound = new ArrayList<>();
        for (ConfigOption<?> option : ALL) {
            if (declaration(option).setting() != null) {
                bound.add(option);
            }
        }
        return bound;
    }

    /**
     * The declaration of one of these options.
     *
     * @throws IllegalArgumentException for an option not declared here
     */
    static Option<?> declaration(ConfigOption<?> option) {
        Option<?> declaration = DECLARATIONS.get(option.key());
        if (declaration == null) {
            throw new IllegalArgumentException("option '" + option.key() + "' is not one of the plugin's");
        }
        return declaration;
    }

    /**
     * The declared range of a numeric option.
     *
     * @throws IllegalArgumentException if the option was declared without one
     */
    static Range range(ConfigOption<?> option) {
        Option<?> declaration = declaration(option);
        if (declaration.kind() != Option.Kind.INTEGER && declaration.kind() != Option.Kind.BYTES) {
            throw new IllegalArgumentException("option '" + option.key() + "' has no declared range");
        }
        return new Range(declaration.min(), declaration.max());
    }

    /** Whether the option's values are secret: never shown in messages or logs (the doctor command asks too). */
    public static boolean secret(ConfigOption<?> option) {
        return declaration(option).secret();
    }

    /** The sections of the configuration reference, in order. */
    static List<Section> sections() {
        return Collections.unmodifiableList(SECTIONS);
    }

    /** Every option, in declaration order, which is the order of the configuration reference. */
    public static List<ConfigOption<?>> all() {
        return Collections.unmodifiableList(ALL);
    }

    // ---- the options, by section of the reference ------------------------------------------------

    private static final Section ADDRESSING = new Section("Endpoint and addressing");

    public static final ConfigOption<String> ENDPOINT = ADDRESSING.add(S3Options.ENDPOINT);
    public static final ConfigOption<Boolean> SSL_ENABLED = ADDRESSING.add(S3Options.SSL_ENABLED);
    public static final ConfigOption<String> REGION = ADDRESSING.add(S3Options.REGION);
    public static final ConfigOption<Boolean> PATH_STYLE_ACCESS = ADDRESSING.add(S3Options.PATH_STYLE_ACCESS);

    private static final Section CREDENTIALS = new Section("Credentials");

    public static final ConfigOption<String> ACCESS_KEY = CREDENTIALS.add(S3Options.ACCESS_KEY);
    public static final ConfigOption<String> SECRET_KEY = CREDENTIALS.add(S3Options.SECRET_KEY);
    public static final ConfigOption<String> SESSION_TOKEN = CREDENTIALS.add(S3Options.SESSION_TOKEN);
    public static final ConfigOption<String> CREDENTIALS_PROVIDER = CREDENTIALS.add(S3Options.CREDENTIALS_PROVIDER);
    public static final ConfigOption<String> ASSUME_ROLE_ARN = CREDENTIALS.add(S3Options.ASSUME_ROLE_ARN);
    public static final ConfigOption<String> ASSUME_ROLE_EXTERNAL_ID =
            CREDENTIALS.add(S3Options.ASSUME_ROLE_EXTERNAL_ID);
    public static final ConfigOption<String> ASSUME_ROLE_SESSION_NAME =
            CREDENTIALS.add(S3Options.ASSUME_ROLE_SESSION_NAME);
    public static final ConfigOption<String> ASSUME_ROLE_SESSION_DURATION =
            CREDENTIALS.add(S3Options.ASSUME_ROLE_SESSION_DURATION);

    private static final Section CLIENT = new Section("S3 client, HTTP client, timeouts and retries");

    public static final ConfigOption<ClientSettings.ClientType> S3_CLIENT = CLIENT.add(S3Options.CLIENT);
    public static final ConfigOption<ClientSettings.HttpClientType> HTTP_CLIENT = CLIENT.add(S3Options.HTTP_CLIENT);
    public static final ConfigOption<Integer> MAX_CONNECTIONS = CLIENT.add(S3Options.MAX_CONNECTIONS);
    public static final ConfigOption<Duration> CONNECTION_TIMEOUT = CLIENT.add(S3Options.CONNECTION_TIMEOUT);
    public static final ConfigOption<Duration> SOCKET_TIMEOUT = CLIENT.add(S3Options.SOCKET_TIMEOUT);
    public static final ConfigOption<Duration> CONNECTION_MAX_IDLE_TIME =
            CLIENT.add(S3Options.CONNECTION_MAX_IDLE_TIME);
    public static final ConfigOption<Duration> REQUEST_ATTEMPT_TIMEOUT = CLIENT.add(S3Options.REQUEST_ATTEMPT_TIMEOUT);
    public static final ConfigOption<Duration> REQUEST_TIMEOUT = CLIENT.add(S3Options.REQUEST_TIMEOUT);
    public static final ConfigOption<Integer> MAX_RETRIES = CLIENT.add(S3Options.MAX_RETRIES);
    public static final ConfigOption<Duration> CLOSE_TIMEOUT = CLIENT.add(FileSystemOptions.CLOSE_TIMEOUT);
    public static final ConfigOption<Duration> CLIENT_CLOSE_TIMEOUT =
            CLIENT.add(FileSystemOptions.CLIENT_CLOSE_TIMEOUT);
    public static final ConfigOption<Boolean> ASYNC_ENABLED = CLIENT.add(FileSystemOptions.ASYNC_ENABLED);

    private static final Section UPLOADS = new Section("Uploads");

    public static final ConfigOption<MemorySize> PART_SIZE = UPLOADS.add(S3Options.PART_SIZE);
    public static final ConfigOption<Integer> MAX_PARTS_IN_FLIGHT = UPLOADS.add(S3Options.MAX_PARTS_IN_FLIGHT);
    public static final ConfigOption<MemorySize> MAX_BUFFERED_SIZE = UPLOADS.add(S3Options.MAX_BUFFERED_SIZE);
    public static final ConfigOption<Boolean> UNIFORM_PARTS = UPLOADS.add(S3Options.UNIFORM_PARTS);
    public static final ConfigOption<Boolean> CONDITIONAL_WRITES_ENABLED =
            UPLOADS.add(S3Options.CONDITIONAL_WRITES_ENABLED);
    public static final ConfigOption<Boolean> CHECKSUM_VALIDATION_ENABLED =
            UPLOADS.add(S3Options.CHECKSUM_VALIDATION_ENABLED);
    public static final ConfigOption<Boolean> CHUNKED_ENCODING_ENABLED =
            UPLOADS.add(S3Options.CHUNKED_ENCODING_ENABLED);
    public static final ConfigOption<Boolean> EXPECT_CONTINUE_ENABLED = UPLOADS.add(S3Options.EXPECT_CONTINUE_ENABLED);

    private static final Section READS = new Section("Reads, directories and bulk copies");

    public static final ConfigOption<MemorySize> READ_AHEAD_SIZE = READS.add(S3Options.READ_AHEAD_SIZE);
    public static final ConfigOption<Integer> READ_AHEAD_PARALLELISM = READS.add(S3Options.READ_AHEAD_PARALLELISM);
    public static final ConfigOption<Integer> READ_BUFFER_SIZE = READS.add(FileSystemOptions.READ_BUFFER_SIZE);
    public static final ConfigOption<Boolean> DIRECT_GETS_ENABLED = READS.add(S3Options.DIRECT_GETS_ENABLED);
    public static final ConfigOption<Boolean> DIRECTORY_MARKERS_ENABLED =
            READS.add(FileSystemOptions.DIRECTORY_MARKERS_ENABLED);
    public static final ConfigOption<Boolean> BULK_COPY_ENABLED = READS.add(FileSystemOptions.BULK_COPY_ENABLED);
    public static final ConfigOption<Integer> BULK_COPY_MAX_CONCURRENT = READS.add(S3Options.BULK_COPY_MAX_CONCURRENT);
    public static final ConfigOption<MemorySize> BULK_COPY_RANGE_SIZE = READS.add(S3Options.BULK_COPY_RANGE_SIZE);

    private static final Section ENCRYPTION = new Section("Server-side encryption");

    public static final ConfigOption<String> SSE_TYPE = ENCRYPTION.add(S3Options.SSE_TYPE);
    public static final ConfigOption<String> SSE_KMS_KEY_ID = ENCRYPTION.add(S3Options.SSE_KMS_KEY_ID);
    public static final ConfigOption<Boolean> SSE_KMS_CHECK_ON_CREATE =
            ENCRYPTION.add(FileSystemOptions.SSE_KMS_CHECK_ON_CREATE);
    public static final ConfigOption<String> SSE_KMS_ENCRYPTION_CONTEXT =
            ENCRYPTION.add(S3Options.SSE_KMS_ENCRYPTION_CONTEXT);
    public static final ConfigOption<Boolean> SSE_KMS_BUCKET_KEY = ENCRYPTION.add(S3Options.SSE_KMS_BUCKET_KEY);
    public static final ConfigOption<String> SSE_C_KEY = ENCRYPTION.add(S3Options.SSE_C_KEY);

    private static final Section NETWORK = new Section("Private networks: trusted certificates and proxy");

    public static final ConfigOption<String> SSL_CA_FILE = NETWORK.add(S3Options.SSL_CA_FILE);
    public static final ConfigOption<String> PROXY_HOST = NETWORK.add(S3Options.PROXY_HOST);
    public static final ConfigOption<Integer> PROXY_PORT = NETWORK.add(S3Options.PROXY_PORT);
    public static final ConfigOption<String> PROXY_USERNAME = NETWORK.add(S3Options.PROXY_USERNAME);
    public static final ConfigOption<String> PROXY_PASSWORD = NETWORK.add(S3Options.PROXY_PASSWORD);
    public static final ConfigOption<String> PROXY_NON_PROXY_HOSTS = NETWORK.add(S3Options.PROXY_NON_PROXY_HOSTS);

    private static final Section BUCKETS = new Section("Bucket policy: storage class, requester pays, access points");

    public static final ConfigOption<String> STORAGE_CLASS = BUCKETS.add(S3Options.STORAGE_CLASS);
    public static final ConfigOption<Boolean> REQUESTER_PAYS_ENABLED = BUCKETS.add(S3Options.REQUESTER_PAYS_ENABLED);
    public static final ConfigOption<String> ACCESS_POINT_ARN = BUCKETS.add(S3Options.ACCESS_POINT_ARN);

    private static final Section ABANDONED_UPLOADS = new Section("Abandoned uploads");

    public static final ConfigOption<Duration> MULTIPART_PURGE_AGE =
            ABANDONED_UPLOADS.add(FileSystemOptions.MULTIPART_PURGE_AGE);

    private static final Section ENTROPY = new Section("Entropy injection");

    public static final ConfigOption<String> ENTROPY_KEY = ENTROPY.add(FileSystemOptions.ENTROPY_KEY);
    public static final ConfigOption<Integer> ENTROPY_LENGTH = ENTROPY.add(FileSystemOptions.ENTROPY_LENGTH);

    private static final Section METRICS = new Section("Metrics");

    public static final ConfigOption<Duration> METRICS_LOG_INTERVAL =
            METRICS.add(FileSystemOptions.METRICS_LOG_INTERVAL);
}
