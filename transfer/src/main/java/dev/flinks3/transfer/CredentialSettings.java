package dev.flinks3.transfer;

import static dev.flinks3.transfer.SettingChecks.blankToNull;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Where the S3 client's credentials come from: static keys, a list of SDK v2 credentials providers,
 * or the SDK's default chain, optionally followed by an STS AssumeRole. Read by {@code aws.S3Credentials}
 * only. Secrets are held as {@link Secret}; {@link #toString()} never shows them. Immutable.
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

    private final String accessKey;
    private final Secret secretKey;
    private final Secret sessionToken;
    private final List<String> credentialsProviderClasses;
    private final String assumeRoleArn;
    private final String assumeRoleExternalId;
    private final String assumeRoleSessionName;
    private final Duration assumeRoleDuration;

    private CredentialSettings(Builder b) {
        this.accessKey = b.accessKey;
        this.secretKey = b.secretKey;
        this.sessionToken = b.sessionToken;
        this.credentialsProviderClasses = List.copyOf(b.credentialsProviderClasses);
        this.assumeRoleArn = b.assumeRoleArn;
        this.assumeRoleExternalId = b.assumeRoleExternalId;
        this.assumeRoleSessionName = b.assumeRoleSessionName;
        this.assumeRoleDuration = b.assumeRoleDuration;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding every setting of this object. */
    public Builder toBuilder() {
        return new Builder(this);
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

    /** External id sent with AssumeRole, or {@code null}. */
    public String assumeRoleExternalId() {
        return assumeRoleExternalId;
    }

    /** Session name of the assumed role, as CloudTrail shows it. */
    public String assumeRoleSessionName() {
        return assumeRoleSessionName;
    }

    /** Lifetime of one assumed-role session. */
    public Duration assumeRoleDuration() {
        return assumeRoleDuration;
    }

    /** Every setting; the access key shows its first four characters, secrets as {@code ******}. */
    @Override
    public String toString() {
        return "accessKey=" + (accessKey == null ? null : maskAccessKey(accessKey))
                + ", secretKey=" + secretKey
                + ", sessionToken=" + sessionToken
                + ", credentialsProviders=" + credentialsProviderClasses
                + ", assumeRoleArn=" + assumeRoleArn
                + ", assumeRoleSessionName=" + assumeRoleSessionName
                + ", assumeRoleDuration=" + assumeRoleDuration;
    }

    private static String maskAccessKey(String key) {
        return key.length() <= 4 ? "****" : key.substring(0, 4) + "****";
    }

    /** Collects credential settings; {@link #build()} checks the combinations. */
    public static final class Builder {
        private String accessKey;
        private Secret secretKey;
        private Secret sessionToken;
        private List<String> credentialsProviderClasses = List.of();
        private String assumeRoleArn;
        private String assumeRoleExternalId;
        private String assumeRoleSessionName = DEFAULT_ASSUME_ROLE_SESSION_NAME;
        private Duration assumeRoleDuration = DEFAULT_ASSUME_ROLE_DURATION;

        private Builder() {}

        private Builder(CredentialSettings s) {
            accessKey = s.accessKey;
            secretKey = s.secretKey;
            sessionToken = s.sessionToken;
            credentialsProviderClasses = s.credentialsProviderClasses;
            assumeRoleArn = s.assumeRoleArn;
            assumeRoleExternalId = s.assumeRoleExternalId;
            assumeRoleSessionName = s.assumeRoleSessionName;
            assumeRoleDuration = s.assumeRoleDuration;
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

        /** @throws IllegalArgumentException outside 15 min..12 h, as STS allows */
        public Builder assumeRoleDuration(Duration value) {
            if (value.compareTo(MIN_ASSUME_ROLE_DURATION) < 0 || value.compareTo(MAX_ASSUME_ROLE_DURATION) > 0) {
                throw new IllegalArgumentException("assume-role duration " + value + " is outside 15 min..12 h");
            }
            this.assumeRoleDuration = value;
            return this;
        }

        /**
         * @throws IllegalArgumentException if a secret key is given without an access key (or the
         *     reverse), or a session token without them
         */
        public CredentialSettings build() {
            if ((accessKey == null) != (secretKey == null)) {
                throw new IllegalArgumentException("access key and secret key must be given together");
            }
            if (sessionToken != null && accessKey == null) {
                throw new IllegalArgumentException("a session token needs an access key and a secret key");
            }
            return new CredentialSettings(this);
        }
    }
}
