package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.EncryptionSettings.SseType;
import dev.flinks3.transfer.S3Settings;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 17: per-bucket keys override the global ones for their bucket only, in the plugin's and S3A's
 * spellings; bad values fail at configure naming the per-bucket key; storage class, requester pays
 * and access points are read and checked.
 */
@Timeout(30)
class BucketConfigurationTest {

    private static Configuration config(Map<String, String> values) {
        Configuration configuration = new Configuration();
        values.forEach(configuration::setString);
        return configuration;
    }

    private static S3Settings forBucket(Map<String, String> values, String bucket) {
        return S3FileSystemSettings.fromConfiguration(config(values), bucket).s3();
    }

    @Test
    void aPerBucketKeyOverridesTheGlobalOneForItsBucketOnly() {
        Map<String, String> values = Map.of(
                "s3.endpoint", "http://global:9000",
                "s3.bucket.savepoints.endpoint", "http://other:9000",
                "s3.bucket.savepoints.sse.type", "sse-s3",
                "s3.bucket.savepoints.access-key", "SAVEPOINTS",
                "s3.bucket.savepoints.secret-key", "savepoints-secret",
                "s3.upload.min.part.size", "16mb");

        S3Settings savepoints = forBucket(values, "savepoints");
        S3Settings checkpoints = forBucket(values, "checkpoints");

        assertThat(savepoints.client().endpoint()).isEqualTo(URI.create("http://other:9000"));
        assertThat(savepoints.encryption().sseType()).isEqualTo(SseType.SSE_S3);
        assertThat(savepoints.client().credentials().accessKey()).isEqualTo("SAVEPOINTS");
        assertThat(savepoints.upload().partSizeBytes())
                .as("global values still apply")
                .isEqualTo(16L << 20);
        assertThat(checkpoints.client().endpoint()).isEqualTo(URI.create("http://global:9000"));
        assertThat(checkpoints.encryption().sseType()).isEqualTo(SseType.NONE);
        assertThat(checkpoints.client().credentials().accessKey()).isNull();
    }

    @Test
    void s3aPerBucketSpellingsAreTakenAndThePluginsOwnWins() {
        Map<String, String> values = Map.of(
                "fs.s3a.bucket.logs.endpoint", "http://s3a:9000",
                "fs.s3a.bucket.dotted.bucket.name.endpoint.region", "eu-west-1",
                "fs.s3a.bucket.both.endpoint", "http://s3a:9000",
                "s3.bucket.both.endpoint", "http://own:9000");

        assertThat(forBucket(values, "logs").client().endpoint()).isEqualTo(URI.create("http://s3a:9000"));
        assertThat(forBucket(values, "dotted.bucket.name").client().region()).isEqualTo("eu-west-1");
        assertThat(forBucket(values, "both").client().endpoint()).isEqualTo(URI.create("http://own:9000"));
        assertThat(BucketKeys.buckets(values.keySet())).containsExactly("both", "dotted.bucket.name", "logs");
    }

    @Test
    void aBadPerBucketValueFailsAtConfigureNamingTheKeyAsWritten() {
        S3FileSystemFactory factory = new S3FileSystemFactory();

        assertThatThrownBy(() -> factory.configure(config(Map.of("s3.bucket.savepoints.upload.min.part.size", "1kb"))))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'1kb'")
                .hasMessageContaining("'s3.bucket.savepoints.upload.min.part.size'");
        assertThatThrownBy(() -> factory.configure(config(Map.of("fs.s3a.bucket.savepoints.access.key", "AKIA"))))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'fs.s3a.bucket.savepoints.access.key'")
                .hasMessageContaining("'s3.bucket.savepoints.secret-key'");
    }

    @Test
    void aProcessWideKeySetPerBucketFailsAtConfigureNamingTheGlobalKey() {
        S3FileSystemFactory factory = new S3FileSystemFactory();

        assertThatThrownBy(() ->
                        factory.configure(config(Map.of("s3.bucket.savepoints.upload.max-buffered-size", "512mb"))))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'s3.bucket.savepoints.upload.max-buffered-size' = '512mb'")
                .hasMessageContaining("Set 's3.upload.max-buffered-size' instead");
        assertThatThrownBy(() -> factory.configure(config(Map.of("s3.bucket.logs.metrics.log-interval", "1min"))))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'s3.bucket.logs.metrics.log-interval' = '1min'");
        factory.configure(config(Map.of("s3.upload.max-buffered-size", "512mb")));
    }

    @Test
    void bucketsWithEqualOverridesShareTheirOverridesKey() {
        Map<String, String> values = Map.of(
                "s3.bucket.a.sse.type", "sse-s3", "s3.bucket.b.sse.type", "sse-s3", "s3.bucket.c.sse.type", "sse-kms");

        assertThat(BucketKeys.overrides(values, "a"))
                .isEqualTo(BucketKeys.overrides(values, "b"))
                .containsExactly(Map.entry("s3.sse.type", "sse-s3"));
        assertThat(BucketKeys.overrides(values, "c")).isNotEqualTo(BucketKeys.overrides(values, "a"));
        assertThat(BucketKeys.overrides(values, "d")).isEmpty();
    }

    @Test
    void theFactoryBuildsOneSetOfClientsPerDistinctEffectiveConfiguration() throws Exception {
        Map<String, String> values = Map.of(
                "s3.endpoint",
                "http://127.0.0.1:9",
                "s3.region",
                "us-east-1",
                "s3.bucket.savepoints-a.sse.type",
                "sse-s3",
                "s3.bucket.savepoints-b.sse.type",
                "sse-s3",
                "s3.bucket.other.endpoint",
                "http://127.0.0.1:10");
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName ours = new ObjectName("dev.flinks3:type=S3FileSystem,scheme=s3,*");
        int before = server.queryNames(ours, null).size();
        S3FileSystemFactory factory = new S3FileSystemFactory();
        factory.configure(config(values));
        try {
            for (String bucket : List.of("checkpoints", "logs", "savepoints-a", "savepoints-b", "other")) {
                factory.create(URI.create("s3://" + bucket + "/"));
            }
            // global (checkpoints, logs), sse-s3 (savepoints-a, savepoints-b), other endpoint (other)
            assertThat(server.queryNames(ours, null)).hasSize(before + 3);
        } finally {
            factory.configure(new Configuration());
        }
        assertThat(server.queryNames(ours, null))
                .as("configuring again closes them")
                .hasSize(before);
    }

    @Test
    void withTheCrtClientABucketThatWouldNeedASecondNativeClientIsRefusedNamingTheKey() throws Exception {
        Map<String, String> values = Map.of(
                "s3.client", "crt",
                "s3.endpoint", "http://127.0.0.1:9",
                "s3.region", "us-east-1",
                "s3.bucket.keys.access-key", "OTHER",
                "s3.bucket.keys.secret-key", "other-secret",
                "s3.bucket.other.endpoint", "http://127.0.0.1:10");
        S3FileSystemFactory factory = new S3FileSystemFactory();
        factory.configure(config(values));
        try {
            factory.create(URI.create("s3://checkpoints/"));
            // other credentials: the same native client signs its requests with them
            factory.create(URI.create("s3://keys/"));
            assertThatThrownBy(() -> factory.create(URI.create("s3://other/")))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("s3.endpoint (http://127.0.0.1:9, not http://127.0.0.1:10)")
                    .hasMessageContaining("s3.client: sdk");
        } finally {
            factory.configure(new Configuration());
        }
    }

    @Test
    void perBucketKeysOfKnownOptionsAreNotReportedAsUnknown() {
        assertThat(UnknownKeys.unknown(List.of(
                        "s3.bucket.a.endpoint",
                        "fs.s3a.bucket.my.bucket.endpoint",
                        "s3.bucket.a.no-such-option",
                        "s3.bucket.accesspoint.arn")))
                .containsExactly("s3.bucket.a.no-such-option", "s3.bucket.accesspoint.arn");
    }

    @Test
    void storageClassIsMatchedAgainstS3sValuesInEverySpelling() {
        assertThat(forBucket(Map.of("s3.storage-class", "standard_ia"), null)
                        .upload()
                        .storageClass())
                .isEqualTo("STANDARD_IA");
        assertThat(forBucket(Map.of("fs.s3a.create.storage.class", "intelligent_tiering"), null)
                        .upload()
                        .storageClass())
                .isEqualTo("INTELLIGENT_TIERING");
        assertThat(forBucket(Map.of("presto.s3.storage-class", "GLACIER_IR"), null)
                        .upload()
                        .storageClass())
                .isEqualTo("GLACIER_IR");
        assertThat(forBucket(Map.of(), null).upload().storageClass()).isNull();
        assertThatThrownBy(() -> forBucket(Map.of("s3.bucket.cold.storage-class", "FROZEN"), "cold"))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'FROZEN'")
                .hasMessageContaining("'s3.bucket.cold.storage-class'")
                .hasMessageContaining("STANDARD_IA");
    }

    @Test
    void requesterPaysInBothSpellings() {
        assertThat(forBucket(Map.of("s3.requester-pays.enabled", "true"), null)
                        .client()
                        .requesterPays())
                .isTrue();
        assertThat(forBucket(Map.of("fs.s3a.requester.pays.enabled", "true"), null)
                        .client()
                        .requesterPays())
                .isTrue();
        assertThat(forBucket(Map.of("fs.s3a.bucket.paid.requester.pays.enabled", "true"), "paid")
                        .client()
                        .requesterPays())
                .isTrue();
        assertThat(forBucket(Map.of(), null).client().requesterPays()).isFalse();
    }

    @Test
    void anAccessPointIsSetPerBucketOnly() {
        String arn = "arn:aws:s3:us-west-2:123456789012:accesspoint/flink";
        assertThat(forBucket(Map.of("s3.bucket.data.accesspoint.arn", arn), "data")
                        .client()
                        .accessPoints())
                .containsExactly(Map.entry("data", arn));
        assertThat(forBucket(Map.of("fs.s3a.bucket.data.accesspoint.arn", "flink-ap-abc123-s3alias"), "data")
                        .client()
                        .accessPoints())
                .containsExactly(Map.entry("data", "flink-ap-abc123-s3alias"));
        assertThatThrownBy(() -> forBucket(Map.of("s3.accesspoint.arn", arn), null))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'s3.accesspoint.arn' is set for no bucket");
        assertThatThrownBy(() -> forBucket(Map.of("s3.bucket.data.accesspoint.arn", "arn:aws:iam::1:role/x"), "data"))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'s3.bucket.data.accesspoint.arn'");
    }
}
