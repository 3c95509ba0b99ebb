package dev.flinks3.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The typed settings: each part's builder checks a value by its setting's declaration and keeps it by that key. */
@Timeout(30)
class SettingTest {

    @Test
    void aValueOutsideItsRangeIsRefusedNamingTheSettingTheValueAndTheRange() {
        assertThatThrownBy(() -> ReadSettings.builder().set(ReadSettings.READ_AHEAD_PARALLELISM, 65))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("readAheadParallelism 65 is outside 1..64");
        assertThatThrownBy(() -> ClientSettings.builder().set(ClientSettings.SOCKET_TIMEOUT, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("socketTimeout")
                .hasMessageContaining("PT0S");
        assertThatThrownBy(() -> ClientSettings.builder().set(ClientSettings.CLIENT, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("client");
    }

    @Test
    void aPartRefusesTheSettingOfAnotherPart() {
        assertThatThrownBy(() -> UploadSettings.builder().set(ReadSettings.DIRECT_GETS_ENABLED, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ReadSettings.directGetsEnabled is not a setting of");
        assertThatThrownBy(() -> UploadSettings.builder().build().get(ClientSettings.MAX_RETRIES))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSettingCarriesItsNameKindDefaultRangeAndPart() {
        Setting<Long> range = ReadSettings.BULK_COPY_RANGE_BYTES;

        assertThat(range.name()).isEqualTo("bulkCopyRangeBytes");
        assertThat(range.kind()).isEqualTo(Setting.Kind.BYTES);
        assertThat(range.defaultValue()).isEqualTo(8L << 20);
        assertThat(range.min()).isEqualTo(ReadSettings.MIN_RANGE_BYTES);
        assertThat(range.max()).isEqualTo(ReadSettings.MAX_RANGE_BYTES);
        assertThat(range.part()).isEqualTo(ReadSettings.class);
        assertThat(ReadSettings.builder().build().get(range)).isEqualTo(8L << 20);
    }

    @Test
    void aValueSetByItsKeyIsWhatTheGetterGives() {
        ClientSettings client = ClientSettings.builder()
                .set(ClientSettings.EXPECT_CONTINUE_ENABLED, false)
                .set(ClientSettings.MAX_CONNECTIONS, 7)
                .build();

        assertThat(client.expectContinueEnabled()).isFalse();
        assertThat(client.maxConnections()).isEqualTo(7);
        assertThat(client.toBuilder().build().get(ClientSettings.MAX_CONNECTIONS))
                .isEqualTo(7);
    }

    @Test
    void theTextOfAPartShowsNoSecretAndLeavesOutUnsetSettings() {
        CredentialSettings credentials = CredentialSettings.builder()
                .accessKey("AKIAEXAMPLEKEY")
                .secretKey(Secret.ofNullable("hunter2-secret"))
                .sessionToken(Secret.ofNullable("hunter2-token"))
                .build();
        EncryptionSettings encryption = EncryptionSettings.builder()
                .sseType(EncryptionSettings.SseType.SSE_C)
                .sseCustomerKey(Secret.ofNullable("hunter2-key"))
                .build();

        assertThat(credentials.toString())
                .contains("accessKey=AKIA****", "secretKey=******", "sessionToken=******")
                .doesNotContain("hunter2")
                .doesNotContain("EXAMPLEKEY")
                .doesNotContain("assumeRoleArn");
        // A flag is never unset: it shows with its default.
        assertThat(encryption.toString()).isEqualTo("sseType=SSE_C, sseCustomerKey=******, sseKmsBucketKey=false");
    }
}
