package dev.flinks3.transfer.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.CredentialSettings;
import dev.flinks3.transfer.Secret;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

class S3CredentialsTest {

    private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    private static final String TOKEN = "FwoGZXIvYXdzEXAMPLETOKEN";

    /** A provider with a public no-argument constructor, as users write them. */
    public static final class ConstructedProvider implements AwsCredentialsProvider {
        @Override
        public AwsCredentials resolveCredentials() {
            return AwsBasicCredentials.create("constructed", "secret");
        }
    }

    /** Not a credentials provider. */
    public static final class NotAProvider {}

    /** A provider without a way to create it. */
    public static final class NeedsArguments implements AwsCredentialsProvider {
        public NeedsArguments(String region) {}

        @Override
        public AwsCredentials resolveCredentials() {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void theResolvedSourceNamesWhatTheSdkReportsAndNoKey() throws Exception {
        CredentialSettings settings = CredentialSettings.builder()
                .accessKey("AKIAEXAMPLE")
                .secretKey(Secret.ofNullable(SECRET))
                .build();
        try (S3Credentials credentials = S3Credentials.create(settings, Region.US_EAST_1)) {
            assertThat(credentials.resolvedSource())
                    .isEqualTo("static keys (resolved by CREDENTIALS_CODE)")
                    .doesNotContain("AKIAEXAMPLE", SECRET);
        }
    }

    @Test
    void theResolvedSourceSaysWhyNoneResolved() throws Exception {
        CredentialSettings settings = CredentialSettings.builder()
                .credentialsProviderClasses(List.of(NeedsNothingButFails.class.getName()))
                .build();
        try (S3Credentials credentials = S3Credentials.create(settings, Region.US_EAST_1)) {
            assertThat(credentials.resolvedSource())
                    .startsWith("providers [" + NeedsNothingButFails.class.getName() + "] (not resolved: ")
                    .contains("no credentials here");
        }
    }

    @Test
    void theSdksSourceCodesAreNamedAndUnknownOnesKept() {
        assertThat(S3Credentials.sourceNames("g")).isEqualTo("CREDENTIALS_ENV_VARS");
        assertThat(S3Credentials.sourceNames("n,i")).isEqualTo("CREDENTIALS_PROFILE, CREDENTIALS_STS_ASSUME_ROLE");
        assertThat(S3Credentials.sourceNames("not-a-code")).isEqualTo("not-a-code");
    }

    /** A provider that resolves nothing. */
    public static final class NeedsNothingButFails implements AwsCredentialsProvider {
        @Override
        public AwsCredentials resolveCredentials() {
            throw new IllegalStateException("no credentials here");
        }
    }

    @Test
    void staticKeysComeFirst() {
        CredentialSettings settings = CredentialSettings.builder()
                .accessKey("AKIAEXAMPLE")
                .secretKey(Secret.ofNullable(SECRET))
                .credentialsProviderClasses(List.of(ConstructedProvider.class.getName()))
                .build();
        AwsCredentialsProvider provider = S3Credentials.baseProvider(settings);
        assertThat(provider).isInstanceOf(StaticCredentialsProvider.class);
        AwsCredentials credentials = provider.resolveCredentials();
        assertThat(credentials).isInstanceOf(AwsBasicCredentials.class);
        assertThat(credentials.accessKeyId()).isEqualTo("AKIAEXAMPLE");
        assertThat(credentials.secretAccessKey()).isEqualTo(SECRET);
    }

    @Test
    void sessionTokenMakesSessionCredentials() {
        CredentialSettings settings = CredentialSettings.builder()
                .accessKey("ASIAEXAMPLE")
                .secretKey(Secret.ofNullable(SECRET))
                .sessionToken(Secret.ofNullable(TOKEN))
                .build();
        AwsCredentials credentials = S3Credentials.baseProvider(settings).resolveCredentials();
        assertThat(credentials).isInstanceOf(AwsSessionCredentials.class);
        assertThat(((AwsSessionCredentials) credentials).sessionToken()).isEqualTo(TOKEN);
    }

    @Test
    void oneProviderClassIsUsedAsIs() {
        AwsCredentialsProvider provider = S3Credentials.baseProvider(CredentialSettings.builder()
                .credentialsProviderClasses(List.of(ConstructedProvider.class.getName()))
                .build());
        assertThat(provider).isInstanceOf(ConstructedProvider.class);
    }

    @Test
    void severalProviderClassesAreChainedInOrder() {
        AwsCredentialsProvider provider = S3Credentials.baseProvider(CredentialSettings.builder()
                .credentialsProviderClasses(
                        List.of(ConstructedProvider.class.getName(), AnonymousCredentialsProvider.class.getName()))
                .build());
        assertThat(provider).isInstanceOf(AwsCredentialsProviderChain.class);
        assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("constructed");
    }

    @Test
    void providersWithStaticCreateAreCreatedThroughIt() {
        assertThat(S3Credentials.instantiate(AnonymousCredentialsProvider.class.getName()))
                .isInstanceOf(AnonymousCredentialsProvider.class);
    }

    @Test
    void unusableProviderClassesFailNamingTheClass() {
        assertThatThrownBy(() -> S3Credentials.instantiate("com.example.Missing"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("com.example.Missing")
                .hasMessageContaining("not found");
        assertThatThrownBy(() -> S3Credentials.instantiate(NotAProvider.class.getName()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(NotAProvider.class.getName())
                .hasMessageContaining("AwsCredentialsProvider");
        assertThatThrownBy(() -> S3Credentials.instantiate(NeedsArguments.class.getName()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no-argument constructor");
    }

    @Test
    void nothingConfiguredUsesDelegatedCredentialsThenTheDefaultChain() {
        AwsCredentialsProvider provider =
                S3Credentials.baseProvider(CredentialSettings.builder().build());
        assertThat(provider.toString())
                .contains("DelegatedCredentials", DefaultCredentialsProvider.class.getSimpleName());
        try {
            DelegatedCredentials.update("ASIADELEGATED", Secret.ofNullable("s1"), Secret.ofNullable("t1"), null);
            assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIADELEGATED");
            DelegatedCredentials.update("ASIARENEWED", Secret.ofNullable("s2"), Secret.ofNullable("t2"), null);
            AwsCredentials renewed = provider.resolveCredentials();
            assertThat(renewed.accessKeyId()).isEqualTo("ASIARENEWED");
            assertThat(((AwsSessionCredentials) renewed).sessionToken()).isEqualTo("t2");
        } finally {
            DelegatedCredentials.clear();
        }
    }

    @Test
    void assumeRoleSignsWithTheRolesCredentials() throws Exception {
        CredentialSettings settings = CredentialSettings.builder()
                .accessKey("AKIAEXAMPLE")
                .secretKey(Secret.ofNullable(SECRET))
                .assumeRoleArn("arn:aws:iam::111122223333:role/flink")
                .assumeRoleExternalId("external")
                .build();
        try (S3Credentials credentials = S3Credentials.create(settings, Region.EU_WEST_1)) {
            assertThat(credentials.provider()).isInstanceOf(StsAssumeRoleCredentialsProvider.class);
            assertThat(credentials.toString())
                    .isEqualTo("static keys, then assume role arn:aws:iam::111122223333:role/flink");
        }
    }

    @Test
    void descriptionNeverShowsSecrets() throws Exception {
        CredentialSettings settings = CredentialSettings.builder()
                .accessKey("ASIAEXAMPLE")
                .secretKey(Secret.ofNullable(SECRET))
                .sessionToken(Secret.ofNullable(TOKEN))
                .build();
        try (S3Credentials credentials = S3Credentials.create(settings, Region.US_EAST_1)) {
            assertThat(credentials.toString())
                    .isEqualTo("static session credentials")
                    .doesNotContain(SECRET)
                    .doesNotContain(TOKEN);
        }
    }
}
