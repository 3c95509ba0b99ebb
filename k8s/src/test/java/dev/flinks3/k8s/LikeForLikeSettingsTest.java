package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flinks3.fs.S3ConfigOptions;
import dev.flinks3.fs.S3SettingsFactory;
import dev.flinks3.transfer.S3Settings;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The like-for-like overlays (native, presto) give both plugins 16 MiB parts and at most 100 connections, and
 * RocksDB 2 transfer threads, each in its own plugin's keys; the *-defaults overlays leave all of that at
 * each plugin's and Flink's defaults, and differ from the like-for-like ones in nothing else.
 */
class LikeForLikeSettingsTest {

    private static final long MIB = 1L << 20;
    private static final String TRANSFER_THREADS = RocksDBOptions.CHECKPOINT_TRANSFER_THREAD_NUM.key();
    private static final List<String> PRESTO_KEYS = List.of(
            "presto.s3.multipart.min-part-size", "presto.s3.multipart.min-file-size", "presto.s3.max-connections");

    @Test
    void ourPluginUploads16MibPartsOverAtMost100Connections() {
        S3Settings settings = S3SettingsFactory.create(Configuration.fromMap(Variant.FLINKS3.flinkConfiguration()));

        assertThat(settings.upload().partSizeBytes()).isEqualTo(16 * MIB);
        assertThat(settings.client().maxConnections()).isEqualTo(100);
        assertThat(Variant.FLINKS3.flinkConfiguration())
                .containsKeys(S3ConfigOptions.PART_SIZE.key(), S3ConfigOptions.MAX_CONNECTIONS.key());
    }

    @Test
    void prestoUploads16MibPartsFrom16MibOnOverAtMost100Connections() {
        Map<String, String> configuration = Variant.PRESTO.flinkConfiguration();

        // PrestoS3FileSystem reads the sizes with Hadoop's Configuration.getLong and the connections with
        // getInt: plain numbers, no units.
        assertThat(Long.parseLong(configuration.get("presto.s3.multipart.min-part-size")))
                .isEqualTo(16 * MIB);
        assertThat(Long.parseLong(configuration.get("presto.s3.multipart.min-file-size")))
                .isEqualTo(16 * MIB);
        assertThat(Integer.parseInt(configuration.get("presto.s3.max-connections")))
                .isEqualTo(100);
    }

    @Test
    void prestoReadsEachOfThoseKeys() {
        PrestoKeys presto = PrestoKeys.load();

        assertThat(PRESTO_KEYS)
                .allSatisfy(key -> assertThat(presto.reads(key)).as(key).isTrue());
        assertThat(presto.reads("presto.s3.multipart.min-part-sizes")).isFalse();
        assertThat(presto.reads("presto.s3.multipart.min-part")).isFalse();
    }

    @ParameterizedTest
    @EnumSource(
            value = Variant.class,
            names = {"FLINKS3", "PRESTO"})
    void rocksDbTransfersStateFilesWithTwoThreads(Variant variant) {
        Configuration configuration = Configuration.fromMap(variant.flinkConfiguration());

        assertThat(configuration.get(RocksDBOptions.CHECKPOINT_TRANSFER_THREAD_NUM))
                .isEqualTo(2);
    }

    @Test
    void ourPluginOnItsDefaults() {
        Map<String, String> configuration = Variant.FLINKS3_DEFAULTS.flinkConfiguration();
        S3Settings settings = S3SettingsFactory.create(Configuration.fromMap(configuration));

        assertThat(settings.upload().partSizeBytes())
                .isEqualTo(S3ConfigOptions.PART_SIZE.defaultValue().getBytes());
        assertThat(settings.client().maxConnections()).isEqualTo(S3ConfigOptions.MAX_CONNECTIONS.defaultValue());
        assertThat(configuration).doesNotContainKeys(TRANSFER_THREADS);
    }

    @Test
    void prestoOnItsDefaults() {
        assertThat(Variant.PRESTO_DEFAULTS.flinkConfiguration())
                .doesNotContainKeys(TRANSFER_THREADS)
                .doesNotContainKeys(PRESTO_KEYS.toArray(new String[0]));
    }

    @ParameterizedTest
    @EnumSource(
            value = Variant.class,
            names = {"FLINKS3_DEFAULTS", "PRESTO_DEFAULTS"})
    void aDefaultsVariantIsItsLikeForLikeVariantWithoutTheLikeForLikeKeys(Variant defaults) {
        Variant likeForLike = defaults == Variant.FLINKS3_DEFAULTS ? Variant.FLINKS3 : Variant.PRESTO;
        ObjectNode withoutKeys = likeForLike.flinkDeployment();
        ObjectNode flinkConfiguration = (ObjectNode) withoutKeys.path("spec").path("flinkConfiguration");
        flinkConfiguration.remove(
                List.of(TRANSFER_THREADS, S3ConfigOptions.PART_SIZE.key(), S3ConfigOptions.MAX_CONNECTIONS.key()));
        flinkConfiguration.remove(PRESTO_KEYS);

        assertThat(defaults.flinkDeployment()).isEqualTo(withoutKeys);
    }
}
