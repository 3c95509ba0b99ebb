package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Base of the tests that check one promise of the filesystem against the shared embedded S3Proxy:
 * one filesystem instance per test class (configured with {@link #options()}), a plain SDK client to
 * check what really reached S3, and a fresh directory per test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractS3ProxyFileSystemTest {

    protected static final int MIB = 1024 * 1024;

    protected EmbeddedS3Server server;
    protected S3TestTarget target;
    protected FileSystem fs;
    protected S3Client s3;
    /** A directory of its own for each test: {@code s3://bucket/<class>/<test>-<uuid>}. */
    protected Path dir;

    /** Extra {@code s3.*} options for this class's filesystem. */
    protected Map<String, String> options() {
        return Map.of();
    }

    /** The target the filesystem talks to; a subclass may put a proxy in between. */
    protected S3TestTarget filesystemTarget() {
        return target;
    }

    @BeforeAll
    void createFileSystem() throws Exception {
        server = SharedS3Proxy.server();
        target = SharedS3Proxy.target();
        s3 = target.sdkClient();
        fs = FlinkS3FileSystems.create("s3", target.bucket(), filesystemTarget().flinkConfiguration(options()));
    }

    @AfterAll
    void closeFileSystem() throws Exception {
        FlinkS3FileSystems.close(fs);
        s3.close();
    }

    @BeforeEach
    void freshDirectory(TestInfo test) {
        String name = test.getTestMethod().map(m -> m.getName()).orElse("test");
        dir = new Path(
                "s3://" + target.bucket() + "/" + getClass().getSimpleName() + "/" + name + "-" + UUID.randomUUID());
    }

    /** The S3 key of a path in the test bucket. */
    protected static String key(Path path) {
        String p = path.toUri().getPath();
        return p.startsWith("/") ? p.substring(1) : p;
    }

    protected void write(Path path, byte[] data) throws IOException {
        try (FSDataOutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
            out.write(data);
        }
    }

    protected byte[] readFully(Path path) throws IOException {
        try (InputStream in = fs.open(path)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toByteArray();
        }
    }

    /** Asserts that no object is at {@code path} and no object or multipart upload is left under {@link #dir}. */
    protected void assertNothingLeftAt(Path path) throws IOException {
        assertThat(s3.listMultipartUploads(b -> b.bucket(target.bucket()).prefix(key(dir)))
                        .uploads())
                .as("multipart uploads left under %s", dir)
                .isEmpty();
        assertThat(fs.exists(path)).isFalse();
        assertThat(s3.listObjectsV2(b -> b.bucket(target.bucket()).prefix(key(dir)))
                        .contents())
                .isEmpty();
    }

    /** The object's bytes as a plain SDK GET sees them. */
    protected byte[] objectBytes(Path path) {
        return s3.getObjectAsBytes(b -> b.bucket(target.bucket()).key(key(path)))
                .asByteArray();
    }

    static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
