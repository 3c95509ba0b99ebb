package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * SSE-S3 on the Ceph RGW 16.2 of {@link CephRgw}. Deviation: this gateway cannot encrypt. RGW serves
 * SSE-S3 only with a key-management backend (Vault) configured and, by default, only over TLS; the test
 * gateway has neither, so it answers every write that asks for {@code x-amz-server-side-encryption: AES256}
 * with 400 InvalidRequest (and an empty message). What the test asserts is the part that matters on any
 * server: the write fails, the error names the file and the answer, and nothing is left behind (no
 * object, no pending multipart upload). The headers SSE-S3 sends are {@code ServerSideEncryptionTest}'s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class CephServerSideEncryptionTest {

    private static final int MIB = 1024 * 1024;

    private FileSystem fs;
    private S3Client s3;
    private String bucket;

    @BeforeAll
    void createFileSystem() throws Exception {
        S3TestTarget target = CephRgw.target();
        bucket = target.bucket();
        s3 = target.sdkClient();
        fs = FlinkS3FileSystems.create(
                "s3",
                bucket,
                target.flinkConfiguration(Map.of("s3.sse.type", "sse-s3", "s3.upload.min.part.size", "5mb")));
    }

    @AfterAll
    void close() throws Exception {
        if (fs != null) {
            FlinkS3FileSystems.close(fs);
            s3.close();
        }
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {1000, 11 * MIB})
    void anEncryptedWriteFailsNamingTheFileAndLeavesNothing(int size) {
        String prefix = "CephServerSideEncryptionTest/" + UUID.randomUUID();
        Path file = new Path("s3://" + bucket + "/" + prefix + "/file");

        Throwable failure = catchThrowable(() -> {
            try (FSDataOutputStream out = fs.create(file, WriteMode.NO_OVERWRITE)) {
                out.write(new byte[size]);
            }
        });

        assertThat(failure)
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("HTTP 400");
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket).prefix(prefix)).contents())
                .isEmpty();
        assertThat(s3.listMultipartUploads(b -> b.bucket(bucket).prefix(prefix)).uploads())
                .isEmpty();
    }
}
