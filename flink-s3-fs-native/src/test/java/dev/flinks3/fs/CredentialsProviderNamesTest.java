package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CredentialsProviderNamesTest {

    private static final String V2 = "software.amazon.awssdk.auth.credentials.";

    @Test
    void s3aAndSdkV1NamesBecomeTheirSdkV2Equivalents() {
        assertThat(CredentialsProviderNames.toSdkV2("org.apache.hadoop.fs.s3a.auth.IAMInstanceCredentialsProvider,"
                        + "com.amazonaws.auth.WebIdentityTokenCredentialsProvider,"
                        + "com.amazonaws.auth.profile.ProfileCredentialsProvider"))
                .containsExactly(
                        V2 + "InstanceProfileCredentialsProvider",
                        V2 + "WebIdentityTokenFileCredentialsProvider",
                        V2 + "ProfileCredentialsProvider");
    }

    @Test
    void simpleNamesComeFromTheSdkPackageAndFullNamesPassThrough() {
        assertThat(CredentialsProviderNames.toSdkV2(" DefaultCredentialsProvider , com.example.VaultProvider "))
                .containsExactly(V2 + "DefaultCredentialsProvider", "com.example.VaultProvider");
    }

    @Test
    void providersOfTheStaticKeysAreDroppedAndDuplicatesRemoved() {
        assertThat(CredentialsProviderNames.toSdkV2("org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider,"
                        + "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider,"
                        + "com.amazonaws.auth.EnvironmentVariableCredentialsProvider,"
                        + "EnvironmentVariableCredentialsProvider,,"))
                .containsExactly(V2 + "EnvironmentVariableCredentialsProvider");
        assertThat(CredentialsProviderNames.toSdkV2(null)).isEmpty();
    }
}
