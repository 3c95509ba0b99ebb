package dev.flinks3.transfer.aws;

import dev.flinks3.transfer.Secret;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * The session credentials that Flink's delegation token framework handed to this process (the
 * JobManager obtains them, every TaskManager receives them; Flink documentation, "Delegation Tokens").
 * One holder per process, since Flink's token receiver and the filesystems are separate objects; each
 * new set replaces the last, and the S3 clients resolve credentials for every request, so a renewal
 * takes effect on the next request.
 *
 * <p>{@link #provider()} is the first link of the default credentials chain ({@link
 * S3Credentials}): while no tokens have arrived it declines, and the SDK's default chain follows.
 * Thread-safe; the secrets are never printed.
 */
public final class DelegatedCredentials {

    private static final AtomicReference<AwsSessionCredentials> CURRENT = new AtomicReference<>();
    private static final AwsCredentialsProvider PROVIDER = new AwsCredentialsProvider() {
        @Override
        public AwsCredentials resolveCredentials() {
            AwsSessionCredentials credentials = CURRENT.get();
            if (credentials == null) {
                throw SdkClientException.create("no S3 delegation tokens received from Flink");
            }
            return credentials;
        }

        @Override
        public String toString() {
            return "DelegatedCredentials";
        }
    };

    private DelegatedCredentials() {}

    /**
     * Replaces the process's delegated credentials.
     *
     * @param expiration when they expire, or {@code null} if unknown
     */
    public static void update(String accessKeyId, Secret secretAccessKey, Secret sessionToken, Instant expiration) {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        AwsSessionCredentials.Builder credentials = AwsSessionCredentials.builder()
                .accessKeyId(accessKeyId)
                .secretAccessKey(secretAccessKey.reveal())
                .sessionToken(sessionToken.reveal());
        if (expiration != null) {
            credentials.expirationTime(expiration);
        }
        CURRENT.set(credentials.build());
    }

    /** The access key id of the current delegated credentials, if any have arrived. */
    public static Optional<String> currentAccessKeyId() {
        return Optional.ofNullable(CURRENT.get()).map(AwsSessionCredentials::accessKeyId);
    }

    /** Forgets the delegated credentials (tests; a process that leaves the cluster). */
    public static void clear() {
        CURRENT.set(null);
    }

    /** The provider of the delegated credentials; fails with {@link SdkClientException} while there are none. */
    public static AwsCredentialsProvider provider() {
        return PROVIDER;
    }
}
