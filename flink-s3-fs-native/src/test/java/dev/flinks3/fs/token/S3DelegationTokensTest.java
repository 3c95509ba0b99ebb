package dev.flinks3.fs.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.Secret;
import dev.flinks3.transfer.aws.DelegatedCredentials;
import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.ServiceLoader;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.core.security.token.DelegationTokenProvider;
import org.apache.flink.core.security.token.DelegationTokenReceiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The token's format, the provider's switch and checks, and the receiver handing tokens on. */
@Timeout(30)
class S3DelegationTokensTest {

    @AfterEach
    void forget() {
        DelegatedCredentials.clear();
    }

    @Test
    void providerAndReceiverAreRegisteredUnderOneServiceName() {
        assertThat(ServiceLoader.load(DelegationTokenProvider.class))
                .anySatisfy(p -> assertThat(p)
                        .isInstanceOf(S3DelegationTokenProvider.class)
                        .extracting(DelegationTokenProvider::serviceName)
                        .isEqualTo("s3"));
        assertThat(ServiceLoader.load(DelegationTokenReceiver.class))
                .anySatisfy(r -> assertThat(r)
                        .isInstanceOf(S3DelegationTokenReceiver.class)
                        .extracting(DelegationTokenReceiver::serviceName)
                        .isEqualTo("s3"));
        assertThat(new S3DelegationTokenProvider().serviceConfigPrefix())
                .isEqualTo("security.delegation.token.provider.s3");
    }

    @Test
    void theProviderIsOffUnlessEnabled() throws Exception {
        S3DelegationTokenProvider provider = new S3DelegationTokenProvider();
        provider.init(new Configuration());
        assertThat(provider.delegationTokensRequired()).isFalse();

        Configuration enabled = new Configuration();
        enabled.setString("security.delegation.token.provider.s3.enabled", "true");
        provider.init(enabled);
        assertThat(provider.delegationTokensRequired()).isTrue();
    }

    /** A job moving from Flink's Hadoop, Presto or native plugin keeps its token keys. */
    @Test
    void anotherS3PluginsTokenKeysSwitchTheProviderOnUnlessOursAreSet() {
        for (String service : new String[] {"s3-hadoop", "s3-presto", "s3-native"}) {
            String prefix = "security.delegation.token.provider." + service + ".";
            java.util.Map<String, String> keys = java.util.Map.of(
                    prefix + "access-key", "AKIA", prefix + "secret-key", "secret", prefix + "region", "eu-west-1");
            S3DelegationTokenProvider provider = new S3DelegationTokenProvider();

            provider.init(Configuration.fromMap(keys));
            assertThat(provider.delegationTokensRequired()).as(service).isTrue();
            assertThat(ForeignTokenKeys.adopted(keys, "security.delegation.token.provider.s3."))
                    .isEqualTo(prefix);

            java.util.Map<String, String> ours = new java.util.HashMap<>(keys);
            ours.put("security.delegation.token.provider.s3.enabled", "false");
            provider.init(Configuration.fromMap(ours));
            assertThat(provider.delegationTokensRequired()).as(service).isFalse();

            java.util.Map<String, String> incomplete = new java.util.HashMap<>(keys);
            incomplete.remove(prefix + "region");
            provider.init(Configuration.fromMap(incomplete));
            assertThat(provider.delegationTokensRequired())
                    .as("%s without a region obtained no tokens either", service)
                    .isFalse();
        }
    }

    @Test
    void anAccessKeyWithoutSecretKeyIsRefusedByName() {
        Configuration config = new Configuration();
        config.setString("security.delegation.token.provider.s3.enabled", "true");
        config.setString("security.delegation.token.provider.s3.access-key", "AKIA");

        assertThatThrownBy(() -> new S3DelegationTokenProvider().init(config))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'security.delegation.token.provider.s3.secret-key'");
    }

    @Test
    void theTokenRoundTripsAndShowsNoSecret() throws Exception {
        Instant expiration = Instant.parse("2026-12-01T10:00:00Z");
        SessionCredentialsToken token = new SessionCredentialsToken(
                "ASIAEXAMPLE", Secret.ofNullable("the-secret"), Secret.ofNullable("the-session-token"), expiration);

        SessionCredentialsToken back = SessionCredentialsToken.fromBytes(token.toBytes());

        assertThat(back.accessKeyId).isEqualTo("ASIAEXAMPLE");
        assertThat(back.secretAccessKey.reveal()).isEqualTo("the-secret");
        assertThat(back.sessionToken.reveal()).isEqualTo("the-session-token");
        assertThat(back.expiration).isEqualTo(expiration);
        assertThat(back.toString()).doesNotContain("the-secret", "the-session-token");
    }

    @Test
    void theReceiverHandsTheCredentialsToThePluginAndTakesEachRenewal() throws Exception {
        S3DelegationTokenReceiver receiver = new S3DelegationTokenReceiver();
        receiver.init(new Configuration());

        receiver.onNewTokensObtained(token("ASIAFIRST"));
        assertThat(DelegatedCredentials.currentAccessKeyId()).contains("ASIAFIRST");
        receiver.onNewTokensObtained(token("ASIASECOND"));
        assertThat(DelegatedCredentials.currentAccessKeyId()).contains("ASIASECOND");
    }

    @Test
    void bytesOfAnotherFormatAreRefused() {
        byte[] truncated = Arrays.copyOf(token("ASIAFIRST"), 6);
        assertThatThrownBy(() -> new S3DelegationTokenReceiver().onNewTokensObtained(truncated))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> new S3DelegationTokenReceiver().onNewTokensObtained(new byte[] {0, 0, 0, 9}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 9");
        assertThat(DelegatedCredentials.currentAccessKeyId()).isEmpty();
    }

    private static byte[] token(String key) {
        return new SessionCredentialsToken(key, Secret.ofNullable("s"), Secret.ofNullable("t"), null).toBytes();
    }
}
