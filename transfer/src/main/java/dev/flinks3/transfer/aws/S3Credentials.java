package dev.flinks3.transfer.aws;

import dev.flinks3.transfer.CredentialSettings;
import dev.flinks3.transfer.options.S3Options;
import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.useragent.BusinessMetricFeatureId;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * Where the S3 client's credentials come from, chosen once from {@link CredentialSettings}:
 *
 * <ol>
 *   <li>static keys (access key + secret key, with a session token they are session credentials);
 *   <li>otherwise the configured {@code AwsCredentialsProvider} classes (SDK v2), tried in order;
 *   <li>otherwise the SDK's default chain: environment, system properties, profile, web identity
 *       token (IRSA, through the {@code sts} module), container and instance metadata.
 * </ol>
 *
 * <p>With an assume-role ARN, those base credentials call STS {@code AssumeRole} (in the client's
 * region) and S3 is signed with the role's temporary credentials, refreshed before they expire.
 *
 * <p>Owns the providers it creates and the STS client; {@link #close()} releases them. Secrets are
 * handed only to the SDK: {@link #toString()} names the source, never a key.
 */
public final class S3Credentials implements Closeable {

    /** The SDK's package as written in user configuration, before any relocation by shading. */
    private static final String SDK_PACKAGE = String.join(".", "software", "amazon", "awssdk") + ".";

    /** How messages name a configured provider class: with the configuration key users set it under. */
    private static final String PROVIDER = "credentials provider class (" + S3Options.CREDENTIALS_PROVIDER.key() + ") ";

    private final AwsCredentialsProvider provider;
    private final Closer owned;
    private final String description;

    private S3Credentials(AwsCredentialsProvider provider, Closer owned, String description) {
        this.provider = provider;
        this.owned = owned;
        this.description = description;
    }

    /**
     * Chooses and builds the credentials provider.
     *
     * @param region the region the S3 client uses; the STS client for assume-role uses it too
     * @throws IllegalArgumentException if a configured provider class cannot be loaded or created
     */
    public static S3Credentials create(CredentialSettings settings, Region region) {
        return create(settings, region, true);
    }

    /**
     * As {@link #create(CredentialSettings, Region)}; without {@code withDelegated} the default chain does not
     * start with Flink's delegation tokens, for the provider that obtains them.
     */
    public static S3Credentials create(CredentialSettings settings, Region region, boolean withDelegated) {
        Closer owned = new Closer();
        try {
            AwsCredentialsProvider base = baseProvider(settings, withDelegated);
            if (base instanceof AutoCloseable) {
                owned.register((AutoCloseable) base);
            }
            String description = describeBase(settings);
            if (settings.assumeRoleArn() == null) {
                return new S3Credentials(base, owned, description);
            }
            StsClient sts = owned.register(
                    StsClient.builder().credentialsProvider(base).region(region).build());
            StsAssumeRoleCredentialsProvider assumeRole = owned.register(StsAssumeRoleCredentialsProvider.builder()
                    .stsClient(sts)
                    .refreshRequest(request -> request.roleArn(settings.assumeRoleArn())
                            .roleSessionName(settings.assumeRoleSessionName())
                            .externalId(settings.assumeRoleExternalId())
                            .durationSeconds((int) settings.assumeRoleDuration().getSeconds()))
                    .build());
            return new S3Credentials(assumeRole, owned, description + ", then assume role " + settings.assumeRoleArn());
        } catch (RuntimeException e) {
            throw owned.closeAfterFailure(e);
        } catch (Error e) {
            throw owned.closeAfterFailure(e);
        }
    }

    /** The provider to sign S3 requests with. */
    public AwsCredentialsProvider provider() {
        return provider;
    }

    /**
     * Resolves the credentials, as the first request would (the providers keep what they resolved), and names
     * where they came from: the configured source ({@link #toString()}) and the source the SDK reports, e.g.
     * {@code the default credentials chain (resolved by CREDENTIALS_STS_ASSUME_ROLE_WEB_ID)}; or why none
     * resolved. Never shows a key. Does not retry beyond what the providers do; may send a request (instance
     * metadata, STS) and so take as long as the first request's credentials would.
     */
    public String resolvedSource() {
        try {
            AwsCredentials resolved = provider.resolveCredentials();
            return description
                    + resolved.providerName()
                            .map(name -> " (resolved by " + sourceNames(name) + ")")
                            .orElse(" (resolved)");
        } catch (RuntimeException e) {
            return description + " (not resolved: " + e.getMessage() + ")";
        }
    }

    /**
     * The names of the SDK's credential source codes: the SDK reports where credentials came from as its
     * business-metric codes ({@code "g"} for environment variables), separated by commas where one source
     * built on another; its enum of those codes names them. A code it does not know stays as it is.
     */
    static String sourceNames(String providerName) {
        List<String> names = new ArrayList<>();
        for (String code : providerName.split(",")) {
            String trimmed = code.trim();
            String name = trimmed;
            try {
                for (BusinessMetricFeatureId feature : BusinessMetricFeatureId.values()) {
                    if (feature.value().equals(trimmed) && feature.name().startsWith("CREDENTIALS_")) {
                        name = feature.name();
                    }
                }
            } catch (LinkageError e) {
                // an SDK without the enum: the code it is
            }
            names.add(name);
        }
        return String.join(", ", names);
    }

    /**
     * The provider of the base credentials, before any assume-role: static keys, the configured
     * classes, or the session credentials of Flink's delegation tokens while they are valid ({@link
     * DelegatedCredentials}), else the SDK's default chain.
     */
    static AwsCredentialsProvider baseProvider(CredentialSettings settings) {
        return baseProvider(settings, true);
    }

    private static AwsCredentialsProvider baseProvider(CredentialSettings settings, boolean withDelegated) {
        if (settings.accessKey() != null) {
            return StaticCredentialsProvider.create(staticCredentials(settings));
        }
        List<String> classes = settings.credentialsProviderClasses();
        if (!classes.isEmpty()) {
            List<AwsCredentialsProvider> providers = new ArrayList<>(classes.size());
            for (String name : classes) {
                providers.add(instantiate(name));
            }
            return providers.size() == 1
                    ? providers.get(0)
                    : AwsCredentialsProviderChain.builder()
                            .credentialsProviders(providers)
                            .build();
        }
        if (!withDelegated) {
            return DefaultCredentialsProvider.builder().build();
        }
        // Flink's delegation tokens come first while they are valid; tokens arriving after a request
        // already went to the default chain are still taken.
        return DelegatedCredentials.orElse(DefaultCredentialsProvider.builder().build());
    }

    private static AwsCredentials staticCredentials(CredentialSettings settings) {
        String secret = settings.secretKey().reveal();
        return settings.sessionToken() == null
                ? AwsBasicCredentials.create(settings.accessKey(), secret)
                : AwsSessionCredentials.create(
                        settings.accessKey(), secret, settings.sessionToken().reveal());
    }

    /**
     * Creates a provider from its class name through a public static {@code create()} method (the
     * SDK's convention) or a public no-argument constructor.
     */
    static AwsCredentialsProvider instantiate(String className) {
        Class<?> type = load(className);
        if (!AwsCredentialsProvider.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(PROVIDER + className + " does not implement " + SDK_PACKAGE
                    + "auth.credentials.AwsCredentialsProvider (AWS SDK v2)");
        }
        try {
            Method create = staticCreateMethod(type);
            if (create != null) {
                return (AwsCredentialsProvider) create.invoke(null);
            }
            Constructor<?> constructor = type.getConstructor();
            return (AwsCredentialsProvider) constructor.newInstance();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(
                    PROVIDER + className
                            + " has neither a public static create() method nor a public no-argument constructor",
                    e);
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(PROVIDER + className + " failed to initialize", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(PROVIDER + className + " cannot be created", e);
        }
    }

    private static Method staticCreateMethod(Class<?> type) {
        try {
            Method create = type.getMethod("create");
            boolean usable = Modifier.isStatic(create.getModifiers())
                    && AwsCredentialsProvider.class.isAssignableFrom(create.getReturnType());
            return usable ? create : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /**
     * Loads a class by the name the user wrote. When the plugin jar relocates the SDK, a name in
     * the SDK's own package is looked up under the relocated package as well.
     */
    private static Class<?> load(String className) {
        ClassLoader loader = S3Credentials.class.getClassLoader();
        try {
            return Class.forName(className, false, loader);
        } catch (ClassNotFoundException notFound) {
            String relocated = relocatedSdkName(className);
            if (relocated != null) {
                try {
                    return Class.forName(relocated, false, loader);
                } catch (ClassNotFoundException alsoNotFound) {
                    notFound.addSuppressed(alsoNotFound);
                }
            }
            throw new IllegalArgumentException(PROVIDER + className + " not found", notFound);
        }
    }

    private static String relocatedSdkName(String className) {
        String actual = AwsCredentialsProvider.class.getName();
        int at = actual.indexOf(SDK_PACKAGE);
        if (!className.startsWith(SDK_PACKAGE) || at <= 0) {
            return null;
        }
        return actual.substring(0, at) + className;
    }

    private static String describeBase(CredentialSettings settings) {
        if (settings.accessKey() != null) {
            return settings.sessionToken() == null ? "static keys" : "static session credentials";
        }
        if (!settings.credentialsProviderClasses().isEmpty()) {
            return "providers " + settings.credentialsProviderClasses();
        }
        return "the default credentials chain";
    }

    /**
     * Closes the role provider, the STS client and the base providers this object created, last
     * created first.
     *
     * @throws IOException the first failure, later ones suppressed
     */
    @Override
    public void close() throws IOException {
        owned.close();
    }

    /** Names the credentials source, e.g. {@code static keys, then assume role arn:...}; no secrets. */
    @Override
    public String toString() {
        return description;
    }
}
