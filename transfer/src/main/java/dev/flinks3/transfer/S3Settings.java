package dev.flinks3.transfer;

import java.util.function.Consumer;

/**
 * Everything the S3 side needs to know, parsed once from the Flink configuration and never changed,
 * in one part per concept: the {@link ClientSettings client} (endpoint, region, credentials, HTTP,
 * retries, timeouts), {@link UploadSettings uploads}, {@link ReadSettings reads} and {@link
 * EncryptionSettings server-side encryption}. The owner of the S3 client takes the whole; each engine
 * is given only its part.
 *
 * <p>Built with {@link #builder()}; each part's builder checks ranges and combinations and throws
 * {@link IllegalArgumentException} naming the setting, the value and what is allowed. Secrets are
 * held as {@link Secret} and {@link #toString()} never shows them. Immutable and thread-safe.
 */
public final class S3Settings {

    private final ClientSettings client;
    private final UploadSettings upload;
    private final ReadSettings read;
    private final EncryptionSettings encryption;

    private S3Settings(Builder b) {
        this.client = b.client.build();
        this.upload = b.upload.build();
        this.read = b.read.build();
        this.encryption = b.encryption.build();
    }

    /** The settings made of these parts. */
    public static S3Settings of(
            ClientSettings client, UploadSettings upload, ReadSettings read, EncryptionSettings encryption) {
        return new Builder()
                .client(client)
                .upload(upload)
                .read(read)
                .encryption(encryption)
                .build();
    }

    /** A builder starting from every part's defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding every setting of this object, to derive changed settings from it. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Endpoint, region, credentials, HTTP client, timeouts, retries, TLS trust and proxy. */
    public ClientSettings client() {
        return client;
    }

    /** Part size, parts in flight, buffer limit, conditional creates, storage class. */
    public UploadSettings upload() {
        return upload;
    }

    /** Read-ahead and bulk-copy ranged GETs. */
    public ReadSettings read() {
        return read;
    }

    /** Server-side encryption. */
    public EncryptionSettings encryption() {
        return encryption;
    }

    /** Every setting except secrets, which show as {@code ******} when set. */
    @Override
    public String toString() {
        return "S3Settings{" + client + ", " + upload + ", " + read + ", " + encryption + "}";
    }

    /** Collects the parts; {@link #build()} builds each, so each checks its own combinations. */
    public static final class Builder {
        private ClientSettings.Builder client;
        private UploadSettings.Builder upload;
        private ReadSettings.Builder read;
        private EncryptionSettings.Builder encryption;

        private Builder() {
            client = ClientSettings.builder();
            upload = UploadSettings.builder();
            read = ReadSettings.builder();
            encryption = EncryptionSettings.builder();
        }

        private Builder(S3Settings s) {
            client = s.client.toBuilder();
            upload = s.upload.toBuilder();
            read = s.read.toBuilder();
            encryption = s.encryption.toBuilder();
        }

        public Builder client(ClientSettings value) {
            this.client = value.toBuilder();
            return this;
        }

        public Builder client(Consumer<ClientSettings.Builder> change) {
            change.accept(client);
            return this;
        }

        public Builder upload(UploadSettings value) {
            this.upload = value.toBuilder();
            return this;
        }

        public Builder upload(Consumer<UploadSettings.Builder> change) {
            change.accept(upload);
            return this;
        }

        public Builder read(ReadSettings value) {
            this.read = value.toBuilder();
            return this;
        }

        public Builder read(Consumer<ReadSettings.Builder> change) {
            change.accept(read);
            return this;
        }

        public Builder encryption(EncryptionSettings value) {
            this.encryption = value.toBuilder();
            return this;
        }

        public Builder encryption(Consumer<EncryptionSettings.Builder> change) {
            change.accept(encryption);
            return this;
        }

        /** @throws IllegalArgumentException the first part whose settings do not go together */
        public S3Settings build() {
            return new S3Settings(this);
        }
    }
}
