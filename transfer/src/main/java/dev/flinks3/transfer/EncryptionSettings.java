package dev.flinks3.transfer;

/**
 * Server-side encryption of every object written (and, for SSE-C, read): the type and its key id,
 * encryption context or customer key. Read by {@code aws.SseDecorator} only. Each setting is declared once, as a
 * {@link Setting} constant here. The customer key is held as a {@link Secret}; {@link #toString()} never shows it.
 * Immutable and thread-safe.
 *
 * @see <a href="https://docs.aws.amazon.com/AmazonS3/latest/userguide/serv-side-encryption.html">Protecting
 *     data with server-side encryption</a>
 */
public final class EncryptionSettings {

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

    private static final Setting.Group SETTINGS = new Setting.Group(EncryptionSettings.class);

    /** See {@link #sseType()}: {@link SseType#NONE} by default. */
    public static final Setting<SseType> SSE_TYPE = SETTINGS.choice("sseType", SseType.class, SseType.NONE);
    /** See {@link #sseKmsKeyId()}. */
    public static final Setting<String> SSE_KMS_KEY_ID = SETTINGS.text("sseKmsKeyId");
    /** See {@link #sseKmsEncryptionContext()}. */
    public static final Setting<String> SSE_KMS_ENCRYPTION_CONTEXT = SETTINGS.text("sseKmsEncryptionContext");
    /** See {@link #sseCustomerKey()}. */
    public static final Setting<Secret> SSE_CUSTOMER_KEY = SETTINGS.value("sseCustomerKey", Secret.class, null, v -> v);
    /** See {@link #sseKmsBucketKey()}: off by default. */
    public static final Setting<Boolean> SSE_KMS_BUCKET_KEY = SETTINGS.flag("sseKmsBucketKey", false);

    /** This object's values: a copy of the builder's, never handed out or changed. */
    private final SettingValues values;

    private EncryptionSettings(Builder b) {
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

    public SseType sseType() {
        return get(SSE_TYPE);
    }

    /** KMS key id or ARN for SSE-KMS, or {@code null} for the bucket's default key. */
    public String sseKmsKeyId() {
        return get(SSE_KMS_KEY_ID);
    }

    /** Base64 JSON encryption context for SSE-KMS, or {@code null}. */
    public String sseKmsEncryptionContext() {
        return get(SSE_KMS_ENCRYPTION_CONTEXT);
    }

    /** Base64 AES-256 key for SSE-C, or {@code null}. */
    public Secret sseCustomerKey() {
        return get(SSE_CUSTOMER_KEY);
    }

    /**
     * True to ask for an S3 Bucket Key with SSE-KMS ({@code x-amz-server-side-encryption-bucket-key-enabled:
     * true} on the requests that create an object): S3 then derives the objects' data keys from a key of the
     * bucket instead of calling KMS for each object, so reads, parts and copies stop costing a KMS request
     * each. False sends no such header, and the bucket's own Bucket Key setting applies (S3 user guide,
     * "Reducing the cost of SSE-KMS with Amazon S3 Bucket Keys").
     */
    public boolean sseKmsBucketKey() {
        return get(SSE_KMS_BUCKET_KEY);
    }

    /** Every setting that is set; the customer key shows as {@code ******}. */
    @Override
    public String toString() {
        return values.toString();
    }

    /** Collects encryption settings; {@link #build()} checks that they go together. */
    public static final class Builder {
        private SettingValues values = new SettingValues(SETTINGS);

        private Builder() {}

        /**
         * Sets {@code setting}, one of {@link EncryptionSettings}'s constants, to {@code value}.
         *
         * @throws IllegalArgumentException for a setting of another part
         * @throws NullPointerException for a {@code null} SSE type
         */
        public <T> Builder set(Setting<T> setting, T value) {
            values.set(setting, value);
            return this;
        }

        public Builder sseType(SseType value) {
            return set(SSE_TYPE, value);
        }

        public Builder sseKmsKeyId(String value) {
            return set(SSE_KMS_KEY_ID, value);
        }

        public Builder sseKmsEncryptionContext(String value) {
            return set(SSE_KMS_ENCRYPTION_CONTEXT, value);
        }

        public Builder sseCustomerKey(Secret value) {
            return set(SSE_CUSTOMER_KEY, value);
        }

        public Builder sseKmsBucketKey(boolean value) {
            return set(SSE_KMS_BUCKET_KEY, value);
        }

        /**
         * @throws IllegalArgumentException for an SSE-KMS key, context or Bucket Key without SSE-KMS, or SSE-C
         *     without a customer key (or a customer key without SSE-C)
         */
        public EncryptionSettings build() {
            SseType sseType = values.get(SSE_TYPE);
            if (values.get(SSE_KMS_BUCKET_KEY) && sseType != SseType.SSE_KMS) {
                throw new IllegalArgumentException("an S3 Bucket Key needs SSE type SSE_KMS, not " + sseType);
            }
            if ((values.get(SSE_KMS_KEY_ID) != null || values.get(SSE_KMS_ENCRYPTION_CONTEXT) != null)
                    && sseType != SseType.SSE_KMS) {
                throw new IllegalArgumentException(
                        "an SSE-KMS key id or context needs SSE type SSE_KMS, not " + sseType);
            }
            if ((values.get(SSE_CUSTOMER_KEY) != null) != (sseType == SseType.SSE_C)) {
                throw new IllegalArgumentException("SSE-C needs SSE type SSE_C and a customer key together");
            }
            return new EncryptionSettings(this);
        }
    }
}
