package dev.flinks3.transfer.aws;

import dev.flinks3.transfer.Secret;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The session credentials that Flink's delegation token framework handed to this process (the
 * JobManager obtains them, every TaskManager receives them; Flink documentation, "Delegation Tokens").
 * One holder per process, since Flink's token receiver and the filesystems are separate objects; each
 * new set replaces the last, and the S3 clients resolve credentials for every request, so a renewal
 * takes effect on the next request.
 *
 * <p>{@link #orElse(AwsCredentialsProvider)} is the start of the default credentials chain ({@link
 * S3Credentials}): it signs with the delegated credentials while they are valid, and otherwise with the
 * process's own chain (the SDK's default chain: environment, profile, web identity, container or instance
 * metadata) where that finds credentials. Delegated credentials that expired are never used: a job whose
 * renewal stalled would otherwise send every request with a token S3 refuses ({@code ExpiredToken}); when
 * the own chain finds nothing either, resolving fails naming the renewal. Thread-safe; the secrets are
 * never printed.
 */
public final class DelegatedCredentials {

    private static final Logger LOG = LoggerFactory.getLogger(DelegatedCredentials.class);

    /**
     * How long before their expiration delegated credentials give way to the process's own chain, if that
     * has credentials: a request signed just before the expiration may reach S3 after it, and a retry later.
     */
    static final Duration EXPIRY_MARGIN = Duration.ofSeconds(30);

    /**
     * How long a failure of the process's own chain is remembered before it is asked again: the chain may
     * try instance metadata, which takes seconds to fail where there is none.
     */
    static final Duration OWN_CHAIN_RETRY = Duration.ofSeconds(10);

    private static final AtomicReference<AwsSessionCredentials> CURRENT = new AtomicReference<>();

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

    /**
     * The delegated credentials while they are valid, else those of {@code own}, the process's own chain.
     * Resolving fails with an {@link SdkClientException} when neither has valid credentials: naming the
     * delegation token renewal if delegated credentials arrived and expired, else with {@code own}'s failure.
     *
     * @param own the chain the process would use without delegation tokens; not owned
     */
    public static AwsCredentialsProvider orElse(AwsCredentialsProvider own) {
        return new WithFallback(Objects.requireNonNull(own, "own"), Clock.systemUTC());
    }

    /** As {@link #orElse(AwsCredentialsProvider)} on {@code clock} (tests). */
    static AwsCredentialsProvider orElse(AwsCredentialsProvider own, Clock clock) {
        return new WithFallback(own, clock);
    }

    /** The delegated credentials, falling back to the process's own chain, which it closes. */
    private static final class WithFallback implements AwsCredentialsProvider, SdkAutoCloseable {
        private final AwsCredentialsProvider own;
        private final Clock clock;
        /** When the own chain last failed, and how; {@code null} while it has not. */
        private volatile OwnFailure ownFailure;
        /** The expired delegated credentials a fallback was last logged for. */
        private volatile AwsSessionCredentials fallbackLogged;

        WithFallback(AwsCredentialsProvider own, Clock clock) {
            this.own = own;
            this.clock = clock;
        }

        @Override
        public AwsCredentials resolveCredentials() {
            AwsSessionCredentials delegated = CURRENT.get();
            Instant now = clock.instant();
            Instant expiration =
                    delegated == null ? null : delegated.expirationTime().orElse(null);
            if (delegated != null && (expiration == null || now.isBefore(expiration.minus(EXPIRY_MARGIN)))) {
                return delegated;
            }
            RuntimeException ownFailed = ownChainFailure(now);
            if (ownFailed == null) {
                try {
                    AwsCredentials credentials = own.resolveCredentials();
                    ownFailure = null;
                    if (delegated != null && fallbackLogged != delegated) {
                        fallbackLogged = delegated;
                        LOG.warn(
                                "The S3 session credentials from Flink's delegation tokens (access key {}) expire at {}"
                                        + " and no renewal has arrived: S3 requests are signed with this process's own"
                                        + " credentials chain until one does",
                                delegated.accessKeyId(),
                                expiration);
                    }
                    return credentials;
                } catch (RuntimeException e) {
                    ownFailure = new OwnFailure(now, e);
                    ownFailed = e;
                }
            }
            if (delegated != null && now.isBefore(expiration)) {
                return delegated;
            }
            if (delegated == null) {
                throw ownFailed instanceof SdkClientException
                        ? (SdkClientException) ownFailed
                        : SdkClientException.create(String.valueOf(ownFailed.getMessage()), ownFailed);
            }
            throw SdkClientException.create(
                    "The S3 session credentials from Flink's delegation tokens (access key " + delegated.accessKeyId()
                            + ") expired at " + expiration + ", "
                            + Duration.between(expiration, now).getSeconds()
                            + " s ago, and no renewal has arrived: check that the JobManager renews them (its log of"
                            + " the S3 delegation token provider, security.delegation.token.provider.s3.*,"
                            + " security.delegation.tokens.renewal.*); this process's own credentials chain has none"
                            + " to fall back on (" + ownFailed.getMessage() + ")",
                    ownFailed);
        }

        /** The own chain's failure if it failed less than {@link #OWN_CHAIN_RETRY} ago, else {@code null}. */
        private RuntimeException ownChainFailure(Instant now) {
            OwnFailure failure = ownFailure;
            return failure != null && now.isBefore(failure.at.plus(OWN_CHAIN_RETRY)) ? failure.cause : null;
        }

        @Override
        public void close() {
            if (own instanceof SdkAutoCloseable) {
                ((SdkAutoCloseable) own).close();
            }
        }

        @Override
        public String toString() {
            return "DelegatedCredentials, else " + own;
        }
    }

    private static final class OwnFailure {
        final Instant at;
        final RuntimeException cause;

        OwnFailure(Instant at, RuntimeException cause) {
            this.at = at;
            this.cause = cause;
        }
    }
}
