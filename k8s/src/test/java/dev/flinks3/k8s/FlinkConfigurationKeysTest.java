package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.fs.S3SettingsFactory;
import dev.flinks3.transfer.S3Settings;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.auth.credentials.WebIdentityTokenFileCredentialsProvider;

/** Every key in the manifests' flinkConfiguration is one that Flink or the variant's plugin reads. */
class FlinkConfigurationKeysTest {

    @ParameterizedTest
    @EnumSource(
            value = Variant.class,
            names = {"FLINKS3", "FLINKS3_DEFAULTS"})
    void everyS3KeyOfOurPluginsVariantsIsOneOurPluginKnows(Variant variant) {
        Set<String> s3Keys = variant.flinkConfiguration().keySet().stream()
                .filter(KnownKeys::isS3Key)
                .collect(Collectors.toSet());

        assertThat(KnownKeys.ourPluginKeys()).containsAll(s3Keys);
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void everyOtherKeyIsTheCurrentSpellingOfAFlinkOption(Variant variant) {
        Set<String> flinkKeys = variant.flinkConfiguration().keySet().stream()
                .filter(key -> !KnownKeys.isS3Key(key) && !KnownKeys.isReporterKey(key))
                // The operator's own option the plugin's component sets (merge pod templates by name).
                .filter(key ->
                        !Flinks3ComponentTest.componentConfigurationKeys().contains(key))
                .collect(Collectors.toSet());

        assertThat(KnownKeys.flinkKeys()).containsAll(flinkKeys);
    }

    @Test
    void theKeySetsCatchAMisspelling() {
        assertThat(KnownKeys.ourPluginKeys())
                .contains("s3.region", "fs.s3.aws.credentials.provider")
                .doesNotContain("s3.regoin");
        assertThat(KnownKeys.flinkKeys())
                .contains("execution.checkpointing.interval")
                .doesNotContain("execution.checkpointing.intervall");
        assertThat(KnownKeys.isReporterKey("metrics.reporter.prom.factory.class"))
                .isTrue();
        assertThat(KnownKeys.isReporterKey("metrics.reporter.prom.factory.klass"))
                .isFalse();
        assertThat(KnownKeys.isReporterKey("metrics.reporter.factory.class")).isFalse();
    }

    @Test
    void nativeVariantSettingsBuildWithTheRegionAndOnlyTheWebIdentityToken() {
        Map<String, String> configuration = Variant.FLINKS3.flinkConfiguration();

        S3Settings settings = S3SettingsFactory.create(Configuration.fromMap(configuration));

        assertThat(settings.client().region()).isEqualTo(Settings.load().region());
        assertThat(settings.client().credentials().credentialsProviderClasses())
                .containsExactly(WebIdentityTokenFileCredentialsProvider.class.getName());
        assertThat(settings.client().credentials().accessKey()).isNull();
    }

    @ParameterizedTest
    @EnumSource(
            value = Variant.class,
            names = {"PRESTO", "PRESTO_DEFAULTS"})
    void everyS3KeyOfThePrestoVariantsIsOnePrestoReadsInItsOwnSpelling(Variant variant) {
        PrestoKeys presto = PrestoKeys.load();
        Set<String> s3Keys = variant.flinkConfiguration().keySet().stream()
                .filter(KnownKeys::isS3Key)
                .collect(Collectors.toSet());

        assertThat(s3Keys)
                .allSatisfy(key -> assertThat(presto.reads(key)).as(key).isTrue());
    }
}
