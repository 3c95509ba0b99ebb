package dev.flinks3.fs.token;

import dev.flinks3.fs.S3FileSystemSettings;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.Secret;
import dev.flinks3.transfer.aws.S3Credentials;
import java.time.Instant;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.core.security.token.DelegationTokenProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * Obtains, on the JobManager, S3 session credentials for every TaskManager, through Flink's delegation
 * token framework (Flink documentation, "Delegation Tokens"): service name {@value #SERVICE_NAME}, so
 * it is switched with {@code security.delegation.token.provider.s3.enabled}. It is off unless that key
 * is set to {@code true}, so installing the plugin never makes the JobManager call STS.
 *
 * <p>The credentials it starts from: {@code security.delegation.token.provider.s3.access-key} and
 * {@code .secret-key} (the keys of Flink's own S3 token providers) if set, else the plugin's configured
 * credentials ({@code s3.access-key}, provider classes, assume-role, the SDK's default chain, e.g. web
 * identity). Session credentials (from a role, web identity, a session token) are passed on as they
 * are; long-term keys are exchanged for session credentials with STS {@code GetSessionToken}. The
 * region is {@code security.delegation.token.provider.s3.region}, else {@code s3.region}; STS's
 * endpoint is the SDK's ({@code AWS_ENDPOINT_URL_STS} or {@code aws.endpointUrlSts} to override).
 * The tokens are valid until the credentials expire; Flink obtains new ones before that and sends them
 * to the {@link S3DelegationTokenReceiver}s.
 *
 * <p>Where {@code security.delegation.token.provider.s3.enabled} is not set, the keys of Flink's own S3
 * plugins ({@code security.delegation.token.provider.s3-hadoop.*}, {@code s3-presto.*}, {@code s3-native.*})
 * switch it on as they switched those plugins' providers on, with one warning naming the keys to use ({@link
 * ForeignTokenKeys}).
 */
public class S3DelegationTokenProvider implements DelegationTokenProvider {

    /** The service name, shared with {@link S3DelegationTokenReceiver}. */
    public static final String SERVICE_NAME = "s3";

    private static final Logger LOG = LoggerFactory.getLogger(S3DelegationTokenProvider.class);

    private String prefix;
    private boolean enabled;
    private String accessKey;
    private Secret secretKey;
    private ClientSettings settings;

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    /**
     * @throws IllegalConfigurationException if only one of the access key and secret key is set, or the
     *     plugin's configuration is invalid
     */
    @Override
    public void init(Configuration configuration) {
        String own = serviceConfigPrefix() + ".";
        String adopted = ForeignTokenKeys.adopted(configuration.toMap(), own);
        prefix = adopted == null ? own : adopted;
        enabled = adopted != null
                || configuration
                        .toMap()
                        .getOrDefault(prefix + "enabled", "false")
                        .trim()
                        .equalsIgnoreCase("true");
        if (!enabled) {
            return;
        }
        accessKey = blankToNull(configuration.toMap().get(prefix + "access-key"));
        String secret = blankToNull(configuration.toMap().get(prefix + "secret-key"));
        if ((accessKey == null) != (secret == null)) {
            throw new IllegalConfigurationException("'" + prefix + (accessKey == null ? "secret-key" : "access-key")
                    + "' is set without '" + prefix + (accessKey == null ? "access-key" : "secret-key")
                    + "': the S3 delegation token provider needs both, or neither to use the plugin's credentials.");
        }
        secretKey = Secret.ofNullable(secret);
        ClientSettings configured =
                S3FileSystemSettings.fromConfiguration(configuration).s3().client();
        String region = blankToNull(configuration.toMap().get(prefix + "region"));
        settings = region == null
                ? configured
                : configured.toBuilder().region(region).build();
    }

    /**
     * Only when {@code security.delegation.token.provider.s3.enabled} is {@code true}, or another S3 plugin's
     * token keys are adopted.
     */
    @Override
    public boolean delegationTokensRequired() {
        return enabled;
    }

    /**
     * @throws software.amazon.awssdk.core.exception.SdkException if the credentials cannot be resolved or
     *     STS refuses them
     */
    @Override
    public ObtainedDelegationTokens obtainDelegationTokens() throws Exception {
        Region region =
                Region.of(settings.region() == null ? ClientSettings.DEFAULT_SIGNING_REGION : settings.region());
        SessionCredentialsToken token = accessKey != null
                ? sessionToken(AwsBasicCredentials.create(accessKey, secretKey.reveal()), region)
                : fromPluginCredentials(region);
        LOG.info("Obtained S3 session credentials for the TaskManagers: {}", token);
        return new ObtainedDelegationTokens(
                token.toBytes(), Optional.ofNullable(token.expiration).map(Instant::toEpochMilli));
    }

    private SessionCredentialsToken fromPluginCredentials(Region region) throws Exception {
        try (S3Credentials credentials = S3Credentials.create(settings.credentials(), region, false)) {
            AwsCredentials resolved = credentials.provider().resolveCredentials();
            if (resolved instanceof AwsSessionCredentials) {
                AwsSessionCredentials session = (AwsSessionCredentials) resolved;
                return new SessionCredentialsToken(
                        session.accessKeyId(),
                        Secret.ofNullable(session.secretAccessKey()),
                        Secret.ofNullable(session.sessionToken()),
                        session.expirationTime().orElse(null));
            }
            return sessionToken(resolved, region);
        }
    }

    /** STS GetSessionToken with long-term keys (AWS STS API reference). */
    private static SessionCredentialsToken sessionToken(AwsCredentials longTerm, Region region) {
        try (StsClient sts = StsClient.builder()
                .region(region)
                .credentialsProvider(StaticCredentialsProvider.create(longTerm))
                .build()) {
            Credentials session = sts.getSessionToken().credentials();
            return new SessionCredentialsToken(
                    session.accessKeyId(),
                    Secret.ofNullable(session.secretAccessKey()),
                    Secret.ofNullable(session.sessionToken()),
                    session.expiration());
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.trim().isEmpty() ? null : value.trim();
    }
}
