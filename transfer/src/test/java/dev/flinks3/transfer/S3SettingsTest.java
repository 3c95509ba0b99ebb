package dev.flinks3.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class S3SettingsTest {

    @Test
    void retryDelaysDefaultToTheStrategysFigures() {
        S3Settings settings = S3Settings.builder().build();

        assertThat(settings.client().retryBaseDelay()).isEqualTo(Duration.ofMillis(100));
        assertThat(settings.client().throttlingRetryBaseDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.client().retryMaxDelay()).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void aRetryBaseDelayAboveTheLargestDelayIsRejected() {
        assertThatThrownBy(() -> S3Settings.builder()
                        .client(c -> c.throttlingRetryBaseDelay(Duration.ofSeconds(30)))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT30S")
                .hasMessageContaining("PT20S");
        assertThatThrownBy(() -> S3Settings.builder().client(c -> c.retryBaseDelay(Duration.ZERO)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retryBaseDelay");
    }

    @Test
    void toBuilderKeepsEverySetting() {
        S3Settings original = S3Settings.builder()
                .client(c -> c.endpoint(URI.create("http://127.0.0.1:9000"))
                        .pathStyleAccess(true)
                        .maxRetries(3)
                        .retryBaseDelay(Duration.ofMillis(50))
                        .throttlingRetryBaseDelay(Duration.ofMillis(300))
                        .retryMaxDelay(Duration.ofSeconds(2))
                        .checksumsEnabled(false)
                        .chunkedEncodingEnabled(false)
                        .sslCaFile(java.nio.file.Path.of("/etc/flink/ca.pem"))
                        .proxy(new HttpProxy("proxy.corp", 3128, "flink", Secret.ofNullable("proxy-secret")))
                        .nonProxyHosts(java.util.List.of("*.internal"))
                        .credentials(k -> k.accessKey("AKIAEXAMPLE")
                                .secretKey(Secret.ofNullable("secret"))
                                .sessionToken(Secret.ofNullable("token"))))
                .upload(u -> u.partSizeBytes(UploadSettings.MIN_PART_SIZE).conditionalWritesEnabled(false))
                .encryption(e -> e.sseType(EncryptionSettings.SseType.SSE_KMS).sseKmsKeyId("alias/key"))
                .build();

        S3Settings copy = original.toBuilder().build();

        assertThat(copy.toString()).isEqualTo(original.toString());
        assertThat(copy.client().credentials().secretKey())
                .isEqualTo(original.client().credentials().secretKey());
        assertThat(copy.client().credentials().sessionToken())
                .isEqualTo(original.client().credentials().sessionToken());
        assertThat(copy.client().proxy()).isEqualTo(original.client().proxy());
        assertThat(copy.toString())
                .contains("sslCaFile=/etc/flink/ca.pem", "nonProxyHosts=[*.internal]")
                .doesNotContain("proxy-secret");
        assertThat(original.toBuilder()
                        .client(c -> c.throttlingRetryBaseDelay(Duration.ofMillis(200)))
                        .build()
                        .client()
                        .throttlingRetryBaseDelay())
                .isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void settingsKeepTheirValuesWhenTheBuilderOrACopyOfItChangesLater() {
        ReadSettings.Builder builder =
                ReadSettings.builder().readAheadBytes(1L << 20).directGetsEnabled(false);
        ReadSettings read = builder.build();
        builder.readAheadBytes(2L << 20).directGetsEnabled(true);
        read.toBuilder().readAheadParallelism(2);

        assertThat(read.readAheadBytes()).isEqualTo(1L << 20);
        assertThat(read.directGetsEnabled()).isFalse();
        assertThat(read.readAheadParallelism()).isEqualTo(ReadSettings.READ_AHEAD_PARALLELISM.defaultValue());
        assertThat(read.toBuilder().build().readAheadBytes()).isEqualTo(1L << 20);

        UploadSettings.Builder upload = UploadSettings.builder().storageClass("STANDARD_IA");
        UploadSettings written = upload.build();
        upload.storageClass(null).uniformParts(true);
        assertThat(written.storageClass()).isEqualTo("STANDARD_IA");
        assertThat(written.uniformParts()).isFalse();
    }

    @Test
    void aSettingsTextNamesEverySettingOfItsPartAndLeavesOutUnsetOnes() {
        assertThat(ReadSettings.builder().directGetsEnabled(false).build().toString())
                .isEqualTo("readAheadBytes=8388608, readAheadParallelism=8, bulkCopyConcurrency=16,"
                        + " bulkCopyRangeBytes=8388608, directGetsEnabled=false");
        assertThat(UploadSettings.builder().build().toString())
                .contains("partSizeBytes=8388608")
                .contains("conditionalWritesEnabled=true")
                .doesNotContain("storageClass");
    }
}
