package dev.flinks3.transfer;

import static dev.flinks3.transfer.SettingChecks.blankToNull;

import java.util.Objects;

/**
 * Server-side encryption of every object written (and, for SSE-C, read): the type and its key id,
 * encryption context or customer key. Read by {@code aws.SseDecorator} only. The customer key is held as
 * a {@link Secret}; {@link #toString()} never shows it. Immutable and thread-safe.
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

    private final SseType sseType;
    private final String sseKmsKeyId;
    private final String sseKmsEncryptionContext;
    private final Secret sseCustomerKey;

    private EncryptionSettings(Builder b) {
        this.sseType = b.sseType;
        this.sseKmsKeyId = b.sseKmsKeyId;
        this.sseKmsEncryptionContext = b.sseKmsEncryptionContext;
        this.sseCustomerKey = b.sseCustomerKey;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding every setting of this object. */
    public Builder toBuilder() {
        return new Builder(this);
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

    @Override
    public String toString() {
        return "sseType=" + sseType + ", sseKmsKeyId=" + sseKmsKeyId + ", sseCustomerKey=" + sseCustomerKey;
    }

    /** Collects encryption settings; {@link #build()} checks that they go together. */
    public static final class Builder {
        private SseType sseType = SseType.NONE;
        private String sseKmsKeyId;
        private String sseKmsEncryptionContext;
        private Secret sseCustomerKey;

        private Builder() {}

        private Builder(EncryptionSettings s) {
            sseType = s.sseType;
            sseKmsKeyId = s.sseKmsKeyId;
            sseKmsEncryptionContext = s.sseKmsEncryptionContext;
            sseCustomerKey = s.sseCustomerKey;
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

        /**
         * @throws IllegalArgumentException for an SSE-KMS key or context without SSE-KMS, or SSE-C
         *     without a customer key (or a customer key without SSE-C)
         */
        public EncryptionSettings build() {
            if ((sseKmsKeyId != null || sseKmsEncryptionContext != null) && sseType != SseType.SSE_KMS) {
                throw new IllegalArgumentException(
                        "an SSE-KMS key id or context needs SSE type SSE_KMS, not " + sseType);
            }
            if ((sseCustomerKey != null) != (sseType == SseType.SSE_C)) {
                throw new IllegalArgumentException("SSE-C needs SSE type SSE_C and a customer key together");
            }
            return new EncryptionSettings(this);
        }
    }
}
