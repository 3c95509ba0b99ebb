package dev.flinks3.transfer.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.Secret;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;

/** Delegated credentials are used while valid; then the process's own chain, or an error naming the renewal. */
@Timeout(30)
class DelegatedCredentialsTest {

    private static final Instant NOW = Instant.parse("2026-12-07T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    @AfterEach
    void clear() {
        DelegatedCredentials.clear();
    }

    @Test
    void validDelegatedCredentialsComeFirst() {
        CountingChain own = CountingChain.with("AKIAOWN");
        DelegatedCredentials.update("ASIADELEGATED", secret("s"), secret("t"), NOW.plus(Duration.ofHours(1)));

        assertThat(DelegatedCredentials.orElse(own, CLOCK).resolveCredentials().accessKeyId())
                .isEqualTo("ASIADELEGATED");
        assertThat(own.calls).hasValue(0);
    }

    @Test
    void expiredDelegatedCredentialsGiveWayToTheOwnChain() {
        DelegatedCredentials.update("ASIAEXPIRED", secret("s"), secret("t"), NOW.minusSeconds(5));

        assertThat(DelegatedCredentials.orElse(CountingChain.with("AKIAOWN"), CLOCK)
                        .resolveCredentials()
                        .accessKeyId())
                .isEqualTo("AKIAOWN");
    }

    @Test
    void credentialsAboutToExpireAreUsedOnlyWhileTheOwnChainHasNone() {
        DelegatedCredentials.update("ASIAEXPIRING", secret("s"), secret("t"), NOW.plusSeconds(10));

        assertThat(DelegatedCredentials.orElse(CountingChain.with("AKIAOWN"), CLOCK)
                        .resolveCredentials()
                        .accessKeyId())
                .isEqualTo("AKIAOWN");
        assertThat(DelegatedCredentials.orElse(CountingChain.empty(), CLOCK)
                        .resolveCredentials()
                        .accessKeyId())
                .isEqualTo("ASIAEXPIRING");
    }

    @Test
    void expiredCredentialsWithoutAnOwnChainFailNamingTheRenewal() {
        DelegatedCredentials.update("ASIAEXPIRED", secret("s"), secret("t"), NOW.minusSeconds(90));

        assertThatThrownBy(() -> DelegatedCredentials.orElse(CountingChain.empty(), CLOCK)
                        .resolveCredentials())
                .isInstanceOf(SdkClientException.class)
                .hasMessageContaining("ASIAEXPIRED")
                .hasMessageContaining("expired at " + NOW.minusSeconds(90))
                .hasMessageContaining("90 s ago")
                .hasMessageContaining("no renewal has arrived")
                .hasMessageContaining("security.delegation.token.provider.s3")
                .hasMessageContaining("no credentials here");
    }

    @Test
    void aRenewalIsTakenAtOnce() {
        AwsCredentialsProvider provider = DelegatedCredentials.orElse(CountingChain.with("AKIAOWN"), CLOCK);
        DelegatedCredentials.update("ASIAEXPIRED", secret("s"), secret("t"), NOW.minusSeconds(5));
        assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("AKIAOWN");

        DelegatedCredentials.update("ASIARENEWED", secret("s"), secret("t"), NOW.plus(Duration.ofHours(1)));

        assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIARENEWED");
    }

    @Test
    void aFailedOwnChainIsNotAskedAgainAtEveryRequest() {
        CountingChain own = CountingChain.empty();
        AwsCredentialsProvider provider = DelegatedCredentials.orElse(own, CLOCK);
        DelegatedCredentials.update("ASIAEXPIRED", secret("s"), secret("t"), NOW.minusSeconds(5));

        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(provider::resolveCredentials).isInstanceOf(SdkClientException.class);
        }

        assertThat(own.calls).hasValue(1);
    }

    @Test
    void withoutDelegatedCredentialsTheOwnChainsFailureIsReported() {
        assertThatThrownBy(() -> DelegatedCredentials.orElse(CountingChain.empty(), CLOCK)
                        .resolveCredentials())
                .isInstanceOf(SdkClientException.class)
                .hasMessage("no credentials here");
    }

    private static Secret secret(String value) {
        return Secret.ofNullable(value);
    }

    /** A stand-in for the SDK's default chain: one key, or none. */
    private static final class CountingChain implements AwsCredentialsProvider {
        final AtomicInteger calls = new AtomicInteger();
        private final String key;

        private CountingChain(String key) {
            this.key = key;
        }

        static CountingChain with(String key) {
            return new CountingChain(key);
        }

        static CountingChain empty() {
            return new CountingChain(null);
        }

        @Override
        public AwsCredentials resolveCredentials() {
            calls.incrementAndGet();
            if (key == null) {
                throw SdkClientException.create("no credentials here");
            }
            return AwsBasicCredentials.create(key, "secret");
        }
    }
}
