package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A user switching from another Flink S3 plugin changes no configuration: the key spellings of
 * Flink's native plugin, its older dotted keys, {@code flink-s3-fs-presto} and
 * {@code flink-s3-fs-hadoop} (S3A) each reach a real server. None of them sets a region: a custom
 * endpoint without a region must work (issue 2, configuration).
 */
class ConfigurationSpellingsTest {

    static Stream<Arguments> spellings() {
        return Stream.of(
                Arguments.of(
                        "flink native", "s3", "s3.endpoint", "s3.access-key", "s3.secret-key", "s3.path-style-access"),
                Arguments.of(
                        "flink dotted", "s3", "s3.endpoint", "s3.access.key", "s3.secret.key", "s3.path.style.access"),
                Arguments.of(
                        "presto",
                        "s3",
                        "presto.s3.endpoint",
                        "presto.s3.access-key",
                        "presto.s3.secret-key",
                        "presto.s3.path-style-access"),
                Arguments.of(
                        "hadoop s3a",
                        "s3a",
                        "fs.s3a.endpoint",
                        "fs.s3a.access.key",
                        "fs.s3a.secret.key",
                        "fs.s3a.path.style.access"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spellings")
    void spellingReachesTheServerWithoutARegion(
            String plugin,
            String scheme,
            String endpointKey,
            String accessKeyKey,
            String secretKeyKey,
            String pathStyleKey)
            throws Exception {
        EmbeddedS3Server server = SharedS3Proxy.server();
        Configuration configuration = Configuration.fromMap(Map.of(
                endpointKey, server.endpoint().toString(),
                accessKeyKey, server.accessKey(),
                secretKeyKey, server.secretKey(),
                pathStyleKey, "true"));
        FileSystem fs = FlinkS3FileSystems.create(scheme, SharedS3Proxy.BUCKET, configuration);
        Path path = new Path(scheme + "://" + SharedS3Proxy.BUCKET + "/spellings/" + UUID.randomUUID());
        byte[] data = ("configured with " + plugin + " keys").getBytes(StandardCharsets.UTF_8);

        try {
            try (OutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
                out.write(data);
            }
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            try (InputStream in = fs.open(path)) {
                in.transferTo(read);
            }

            assertThat(read.toByteArray()).isEqualTo(data);
            assertThat(fs.delete(path, false)).isTrue();
        } finally {
            FlinkS3FileSystems.close(fs);
        }
    }
}
