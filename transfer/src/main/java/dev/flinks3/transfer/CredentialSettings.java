package dev.flinks3.transfer;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Where the S3 client's credentials come from: static keys, a list of SDK v2 credentials providers,
 * or the SDK's default chain, optionally followed by an STS AssumeRole. Read by {@code aws.S3Credentials}
 * only. Each setting is declared once, as a {@link Setting} constant here. Secrets are held as {@link Secret};
 * {@link #toString()} never shows them. Immutable.
 *
 * @see <a href="https://docs.aws.amazon.com/STS/latest/APIReference/API_AssumeRole.html">STS AssumeRole</a>
 */
public final class CredentialSettings {

    /** Session name of an assumed role when none is configured (as Flink's native S3 plugin names it). */
    public static final String DEFAULT_ASSUME_ROLE_SESSION_NAME = "flink-s3-session";
    /** Lifetime of an assumed-role session when none is configured: 1 hour, STS's default. */
    public static final Duration DEFAULT_ASSUME_ROLE_DURATION = Duration.ofHours(1);
    /** STS AssumeRole's shortest {@code DurationSeconds}: 15 minutes. */
    public static final Duration MIN_ASSUME_ROLE_DURATION = Duration.ofMinutes(15);
    /** STS AssumeRole's longest {@code DurationSeconds}: 12 hours. */
    public static final Duration MAX_ASSUME_ROLE_DURATION = Duration.ofHours(12);

    private static final Setting.Group SETTINGS = new Setting.Group(CredentialSettings.class);

    /** See {@link #accessKey()}; shown with its first four characters only. */
    public static final Setting<String> ACCESS_KEY = SETTINGS.shown(
            "accessKey", String.class, null, SettingChecks::blankToNull, CredentialSettings::maskAccessKey);
    /** See {@link #secretKey()}. */
    public static final Setting<Secret> SECRET_KEY = SETTINGS.value("secretKey", Secret.class, null, v -> v);
    /** See {@link #sessionToken()}. */
    public static final Setting<Secret> SESSION_TOKEN = SETTINGS.value("sessionToken", Secret.class, null, v -> v);
    /** See {@link #credentialsProviderClasses()}: empty by default. */
    public static final Setting<List<String>> CREDENTIALS_PROVIDER_CLASSES =
            SETTINGS.value("credentialsProviderClasses", Setting.Group.generic(List.class), List.of(), List::copyOf);
    /** See {@link #assumeRoleArn()}. */
    public static final Setting<String> ASSUME_ROLE_ARN = SETTINGS.text("assumeRoleArn");
    /** See {@link #assumeRoleExternalId()}. */
    public static final Setting<String> ASSUME_ROLE_EXTERNAL_ID = SETTINGS.text("assumeRoleExternalId");
    /** See {@link #assumeRoleSessionName()}: {@value #DEFAULT_ASSUME_ROLE_SESSION_NAME} by default. */
    public static final Setting<String> ASSUME_ROLE_SESSION_NAME = SETTINGS.value(
            "assumeRoleSessionName",
            String.class,
            DEFAULT_ASSUME_ROLE_SESSION_NAME,
            v -> Objects.requireNonNull(v, "assumeRoleSessionName"));
    /** See {@link #assumeRoleDuration()}: 15 min..12 h, as STS allows, 1 h by default. */
    public static final Setting<Duration> ASSUME_ROLE_DURATION = SETTINGS.value(
            "assumeRoleDuration", Duration.class, DEFAULT_ASSUME_ROLE_DURATION, CredentialSettings::stsDuration);

    /** This object's values: a copy of the builder's, never handed out or changed. */
    private final SettingValues values;

    private CredentialSettings(Builder b) {
        this.values = b.values.copy();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding every setting of this object. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.values = values.copy();
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

    /** Static access key id, or {@code null} to use the provider list or the default chain. */
    public String accessKey() {
        return get(ACCESS_KEY);
    }

    /** Static secret key, or {@code null}. */
    public Secret secretKey() {
        return get(SECRET_KEY);
    }

    /** Session token for temporary static credentials, or {@code null}. */
    public Secret sessionToken() {
        return get(SESSION_TOKEN);
    }

    /** Fully qualified class names of SDK v2 {@code AwsCredentialsProvider}s, tried in order; may be empty. */
    public List<String> credentialsProviderClasses() {
        return get(CREDENTIALS_PROVIDER_CLASSES);
    }

    /** IAM role to assume through STS with the base credentials, or {@code null}. */
    public String assumeRoleArn() {
        return get(ASSUME_ROLE_ARN);
    }

    /** External id sent with AssumeRole, or {@code null}. */
    public String assumeRoleExternalId() {
        return get(ASSUME_ROLE_EXTERNAL_ID);
    }

    /** Session name of the assumed role, as CloudTrail shows it. */
    public String assumeRoleSessionName() {
        return get(ASSUME_ROLE_SESSION_NAME);
    }

    /** Lifetime of one assumed-role session. */
    public Duration assumeRoleDuration() {
        return get(ASSUME_ROLE_DURATION);
    }

    /** Every setting that is set; the access key shows its first four characters, secrets as {@code ******}. */
    @Override
    public String toString() {
        return values.toString();
    }

    private static String maskAccessKey(String key) {
        return key.length() <= 4 ? "****" : key.substring(0, 4) + "****";
    }

    private static Duration stsDuration(Duration value) {
        if (value.compareTo(MIN_ASSUME_ROLE_DURATION) < 0 || value.compareTo(MAX_ASSUME_ROLE_DURATION) > 0) {
            throw new IllegalArgumentException("assume-role duration " + value + " is outside 15 min..12 h");
        }
        return value;
    }

    /** Collects credential settings; {@link #build()} checks the combinations. */
    public static final class Builder {
        private SettingValues values = new SettingValues(SETTINGS);

        private Builder() {}

        /**
         * Sets {@code setting}, one of {@link CredentialSettings}'s constants, to {@code value}.
         *
         * @throws IllegalArgumentException naming the setting, the value and what is allowed, for a value that is
         *     not allowed, or for a setting of another part
         */
        public <T> Builder set(Setting<T> setting, T value) {
            values.set(setting, value);
            return this;
        }

        public Builder accessKey(String value) {
            return set(ACCESS_KEY, value);
        }

        public Builder secretKey(Secret value) {
            return set(SECRET_KEY, value);
        }

        public Builder sessionToken(Secret value) {
            return set(SESSION_TOKEN, value);
        }

        public Builder credentialsProviderClasses(List<String> value) {
            return set(CREDENTIALS_PROVIDER_CLASSES, value);
        }

        public Builder assumeRoleArn(String value) {
            return set(ASSUME_ROLE_ARN, value);
        }

        public Builder assumeRoleExternalId(String value) {
            return set(ASSUME_ROLE_EXTERNAL_ID, value);
        }

        public Builder assumeRoleSessionName(String value) {
            return set(ASSUME_ROLE_SESSION_NAME, value);
        }

        /** @throws IllegalArgumentException outside 15 min..12 h, as STS allows */
        public Builder assumeRoleDuration(Duration value) {
            return set(ASSUME_ROLE_DURATION, value);
        }

        /**
         * @throws IllegalArgumentException if a secret key is given without an access key (or the
         *     reverse), or a session token without them
         */
        public CredentialSettings build() {
            String accessKey = values.get(ACCESS_KEY);
            if ((accessKey == null) != (values.get(SECRET_KEY) == null)) {
                throw new IllegalArgumentException("access key and secret key must be given together");
            }
            if (values.get(SESSION_TOKEN) != null && accessKey == null) {
                throw new IllegalArgumentException("a session token needs an access key and a secret key");
            }
            return new CredentialSettings(this);
        }
    }
}
