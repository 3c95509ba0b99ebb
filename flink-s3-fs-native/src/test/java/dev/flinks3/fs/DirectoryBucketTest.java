package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.testserver.EmbeddedS3Server;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
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

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable access) {
        assertThatThrownBy(access)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("S3 Express One Zone directory bucket '" + DIRECTORY_BUCKET + "'")
                .hasMessageContaining("not in key order")
                .hasMessageContaining("ETags are not MD5s")
                .hasMessageContaining("general purpose bucket");
    }
}
