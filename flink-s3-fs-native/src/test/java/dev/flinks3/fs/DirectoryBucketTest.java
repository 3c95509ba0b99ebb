package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.testserver.EmbeddedS3Server;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * S3 Express One Zone directory buckets (names ending {@code --x-s3}) are refused before any request,
 * with the reasons: unordered listings that take only '/'-terminated prefixes, ETags that are not MD5s,
 * consecutive part numbers. Their semantics cannot be tested here; the refusal can.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DirectoryBucketTest {

    private static final String DIRECTORY_BUCKET = "checkpoints--usw2-az1--x-s3";
    private static final String DIRECTORY_ALIAS = "checkpoints--usw2-az1--xa-s3";

    @Test
    void everyAccessToADirectoryBucketIsRefusedWithTheReasonAndSendsNoRequest() throws Exception {
        try (EmbeddedS3Server server =
                EmbeddedS3Server.builder().bucket("general-purpose").start()) {
            S3FileSystemFactory factory = new S3FileSystemFactory();
            factory.configure(Configuration.fromMap(Map.of(
                    "s3.endpoint",
                    server.endpoint().toString(),
                    "s3.path-style-access",
                    "true",
                    "s3.access-key",
                    server.accessKey(),
                    "s3.secret-key",
                    server.secretKey())));
            FileSystem fs = factory.create(URI.create("s3://" + DIRECTORY_BUCKET));
            Path file = new Path("s3://" + DIRECTORY_BUCKET + "/chk-1/_metadata");

            assertRefused(() -> fs.getFileStatus(file));
            assertRefused(() -> fs.listStatus(file.getParent()));
            assertRefused(() -> fs.create(file, WriteMode.NO_OVERWRITE));
            assertRefused(() -> fs.createRecoverableWriter().open(file));
            // A general purpose bucket of the same filesystem still works.
            assertThat(fs.exists(new Path("s3://general-purpose/none"))).isFalse();

            assertThat(server.requestLog().entries())
                    .isNotEmpty()
                    .allMatch(request -> request.bucket().equals("general-purpose"));
            factory.configure(new Configuration());
        }
    }

    /**
     * Issue 45: an access point for a directory bucket has an alias ending {@code --xa-s3}; a path naming the
     * alias as its bucket, or an access point configured for a bucket, reaches the directory bucket behind it.
     */
    @Test
    void aDirectoryBucketReachedThroughAnAccessPointIsRefusedToo() throws Exception {
        try (EmbeddedS3Server server =
                EmbeddedS3Server.builder().bucket("general-purpose").start()) {
            S3FileSystemFactory factory = new S3FileSystemFactory();
            factory.configure(configuration(server, Map.of()));
            FileSystem fs = factory.create(URI.create("s3://" + DIRECTORY_ALIAS));
            Path file = new Path("s3://" + DIRECTORY_ALIAS + "/chk-1/_metadata");

            assertRefused(() -> fs.getFileStatus(file), DIRECTORY_ALIAS);
            assertRefused(() -> fs.create(file, WriteMode.NO_OVERWRITE), DIRECTORY_ALIAS);
            assertThat(server.requestLog().entries()).isEmpty();

            for (String accessPoint : List.of(
                    DIRECTORY_ALIAS, "arn:aws:s3express:us-west-2:123456789012:accesspoint/" + DIRECTORY_ALIAS)) {
                String key = "s3.bucket.general-purpose.accesspoint.arn";
                assertThatThrownBy(() -> factory.configure(configuration(server, Map.of(key, accessPoint))))
                        .isInstanceOf(IllegalConfigurationException.class)
                        .hasMessageContaining("directory bucket reached through access point '" + accessPoint + "'")
                        .hasMessageContaining(key)
                        .hasMessageContaining("general purpose bucket");
            }
            factory.configure(new Configuration());
        }
    }

    private static Configuration configuration(EmbeddedS3Server server, Map<String, String> extra) {
        Map<String, String> options = new HashMap<>(Map.of(
                "s3.endpoint",
                server.endpoint().toString(),
                "s3.path-style-access",
                "true",
                "s3.access-key",
                server.accessKey(),
                "s3.secret-key",
                server.secretKey()));
        options.putAll(extra);
        return Configuration.fromMap(options);
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable access) {
        assertRefused(access, DIRECTORY_BUCKET);
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable access, String name) {
        assertThatThrownBy(access)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("S3 Express One Zone directory bucket")
                .hasMessageContaining("'" + name + "'")
                .hasMessageContaining("not in key order")
                .hasMessageContaining("ETags are not MD5s")
                .hasMessageContaining("general purpose bucket");
    }
}
