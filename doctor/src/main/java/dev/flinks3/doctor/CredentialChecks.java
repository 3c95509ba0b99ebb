package dev.flinks3.doctor;

import dev.flinks3.fs.S3ConfigOptions;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.aws.S3Credentials;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.StsClientBuilder;
import software.amazon.awssdk.services.sts.model.GetCallerIdentityResponse;

/**
 * The credentials the plugin would sign with, built by the plugin's own {@link S3Credentials} from the same
 * settings: which provider resolved them (static keys, a configured provider class, the web identity of IRSA, EKS
 * Pod Identity's container credentials, an instance profile, ...), whose identity they are (STS
 * GetCallerIdentity, at the S3 endpoint for a custom one, where STS answers there), and when session credentials
 * expire. Never prints a key.
 */
final class CredentialChecks {

    static final String SECTION = "credentials";
    /** Session credentials expiring sooner than this get a warning: a long checkpoint may outlive them. */
    static final Duration SHORT_LIFETIME = Duration.ofMinutes(15);

    private CredentialChecks() {}

    /** @return the credentials' provider, to sign the store's probes with; empty if none resolved */
    static Optional<S3Credentials> run(Report report, S3Settings settings) {
        Region region =
                Region.of(Optional.ofNullable(settings.client().region()).orElse("us-east-1"));
        S3Credentials credentials;
        AwsCredentials resolved;
        try {
            credentials = S3Credentials.create(settings.client().credentials(), region);
            resolved = credentials.provider().resolveCredentials();
        } catch (RuntimeException e) {
            report.add(Check.failure(
                    SECTION,
                    "provider",
                    "no credentials resolved: " + e.getMessage(),
                    "set " + S3ConfigOptions.ACCESS_KEY.key() + " and " + S3ConfigOptions.SECRET_KEY.key()
                            + ", or give the pod a role (IRSA: the service account's"
                            + " eks.amazonaws.com/role-arn annotation; EKS Pod Identity: an association for the service"
                            + " account), or " + S3ConfigOptions.CREDENTIALS_PROVIDER.key()));
            return Optional.empty();
        }
        report.add(Check.ok(
                SECTION,
                "provider",
                credentials + " resolved credentials, access key id ending ..." + tail(resolved.accessKeyId())));
        if (resolved instanceof AwsSessionCredentials) {
            Optional<Instant> expiry = ((AwsSessionCredentials) resolved).expirationTime();
            if (expiry.isPresent()) {
                Duration left = Duration.between(Instant.now(), expiry.get());
                if (left.compareTo(SHORT_LIFETIME) < 0) {
                    report.add(Check.warning(
                            SECTION,
                            "session expiry",
                            "the session credentials expire at " + expiry.get() + " (in " + left.toMinutes() + " min)",
                            "static session credentials (" + S3ConfigOptions.SESSION_TOKEN.key()
                                    + ") are not renewed: use a provider that" + " refreshes them (IRSA, Pod Identity, "
                                    + S3ConfigOptions.ASSUME_ROLE_ARN.key() + ")"));
                } else {
                    report.add(Check.ok(
                            SECTION,
                            "session expiry",
                            "session credentials, expiring at " + expiry.get() + " (in " + left.toMinutes()
                                    + " min); the provider renews them"));
                }
            } else {
                report.add(Check.ok(SECTION, "session expiry", "session credentials without an expiry"));
            }
        }
        identity(report, settings, region, credentials);
        return Optional.of(credentials);
    }

    private static void identity(Report report, S3Settings settings, Region region, S3Credentials credentials) {
        URI endpoint = settings.client().endpoint();
        StsClientBuilder builder = StsClient.builder()
                .region(region)
                .credentialsProvider(credentials.provider())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .apiCallTimeout(Duration.ofSeconds(10))
                        .build());
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        try (StsClient sts = builder.build()) {
            GetCallerIdentityResponse identity = sts.getCallerIdentity();
            report.add(Check.ok(
                    SECTION,
                    "identity",
                    identity.arn() + " (account " + identity.account() + ", STS GetCallerIdentity)"));
        } catch (RuntimeException e) {
            report.add(Check.ok(
                    SECTION,
                    "identity",
                    "unknown: STS " + (endpoint == null ? "of " + region : "at " + endpoint)
                            + " did not tell (" + firstLine(e.getMessage()) + "); the store's probes below show what"
                            + " these credentials may do"));
        }
    }

    private static String tail(String accessKeyId) {
        return accessKeyId == null || accessKeyId.length() < 4 ? "" : accessKeyId.substring(accessKeyId.length() - 4);
    }

    static String firstLine(String message) {
        if (message == null) {
            return "no message";
        }
        int newline = message.indexOf('\n');
        String line = newline < 0 ? message : message.substring(0, newline);
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
