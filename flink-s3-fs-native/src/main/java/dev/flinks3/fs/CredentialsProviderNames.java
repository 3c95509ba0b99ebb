package dev.flinks3.fs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * Turns the credentials-provider list a user wrote for any of Flink's S3 plugins into AWS SDK v2 class
 * names.
 *
 * <ul>
 *   <li>SDK v2 class names pass through; a simple name (no package) is taken from
 *       {@code software.amazon.awssdk.auth.credentials}, as Flink's native plugin does.
 *   <li>S3A and SDK v1 providers that have an SDK v2 equivalent are replaced by it (S3A's
 *       documentation "Authenticating with S3" lists them).
 *   <li>S3A's {@code SimpleAWSCredentialsProvider} and {@code TemporaryAWSCredentialsProvider} read the
 *       static keys; the static keys are used anyway when configured, so they are dropped.
 * </ul>
 *
 * SDK v2 names the user wrote in full keep the SDK's own package; the S3 client owner loads them from
 * the relocated package inside the plugin jar. Names mapped here use the package the SDK is loaded from.
 */
final class CredentialsProviderNames {

    /** The package of the SDK's credentials providers as loaded (relocated in the plugin jar). */
    static final String SDK_V2_PACKAGE =
            AwsCredentialsProvider.class.getPackage().getName() + ".";

    private static final String STATIC_KEYS = "";

    private static final Map<String, String> EQUIVALENTS = Map.ofEntries(
            Map.entry("org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider", STATIC_KEYS),
            Map.entry("org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider", STATIC_KEYS),
            Map.entry("org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider", v2("AnonymousCredentialsProvider")),
            Map.entry(
                    "org.apache.hadoop.fs.s3a.auth.IAMInstanceCredentialsProvider",
                    v2("InstanceProfileCredentialsProvider")),
            Map.entry(
                    "org.apache.hadoop.fs.s3a.SharedInstanceProfileCredentialsProvider",
                    v2("InstanceProfileCredentialsProvider")),
            Map.entry("com.amazonaws.auth.DefaultAWSCredentialsProviderChain", v2("DefaultCredentialsProvider")),
            Map.entry(
                    "com.amazonaws.auth.EnvironmentVariableCredentialsProvider",
                    v2("EnvironmentVariableCredentialsProvider")),
            Map.entry(
                    "com.amazonaws.auth.SystemPropertiesCredentialsProvider", v2("SystemPropertyCredentialsProvider")),
            Map.entry(
                    "com.amazonaws.auth.InstanceProfileCredentialsProvider", v2("InstanceProfileCredentialsProvider")),
            Map.entry("com.amazonaws.auth.ContainerCredentialsProvider", v2("ContainerCredentialsProvider")),
            Map.entry("com.amazonaws.auth.EC2ContainerCredentialsProviderWrapper", v2("ContainerCredentialsProvider")),
            Map.entry(
                    "com.amazonaws.auth.WebIdentityTokenCredentialsProvider",
                    v2("WebIdentityTokenFileCredentialsProvider")),
            Map.entry("com.amazonaws.auth.profile.ProfileCredentialsProvider", v2("ProfileCredentialsProvider")),
            Map.entry("com.amazonaws.auth.AnonymousAWSCredentials", v2("AnonymousCredentialsProvider")));

    private CredentialsProviderNames() {}

    /**
     * @param commaSeparated the configured list, may be {@code null}
     * @return SDK v2 class names in the configured order, without duplicates; empty if none remain
     */
    static List<String> toSdkV2(String commaSeparated) {
        List<String> names = new ArrayList<>();
        if (commaSeparated == null) {
            return names;
        }
        for (String raw : commaSeparated.split(",")) {
            String name = raw.trim();
            if (name.isEmpty()) {
                continue;
            }
            String mapped = EQUIVALENTS.getOrDefault(name, name.indexOf('.') < 0 ? SDK_V2_PACKAGE + name : name);
            if (!mapped.equals(STATIC_KEYS) && !names.contains(mapped)) {
                names.add(mapped);
            }
        }
        return names;
    }

    private static String v2(String simpleName) {
        return SDK_V2_PACKAGE + simpleName;
    }
}
