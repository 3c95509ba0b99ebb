package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.NetworkProfile;
import dev.flinks3.testserver.RequestKind;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Against a server that behaves like S3 seen from a cloud VM ({@code wan}: each part takes about
 * 100 ms), one output stream uploads its parts in parallel but never has more than
 * {@code s3.upload.max.concurrent.uploads} in flight: a writer faster than the network blocks instead
 * of buffering the whole file (issue 2, write path: back-pressure and bounded memory).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UploadBackPressureTest {

    private static final int PART_SIZE = 5 * 1024 * 1024;
    private static final int PARTS = 8;
    private static final int MAX_IN_FLIGHT = 2;
    private static final String BUCKET = "back-pressure";

    private EmbeddedS3Server server;
    private FileSystem fs;

    @BeforeAll
    void start() throws Exception {
        server = EmbeddedS3Server.builder()
                .profile(NetworkProfile.WAN)
                .bucket(BUCKET)
                .start();
        S3TestTarget target = new S3TestTarget(
                "S3Proxy (wan)", server.endpoint(), server.accessKey(), server.secretKey(), server.region(), BUCKET);
        Configuration configuration = target.flinkConfiguration(Map.of(
                "s3.upload.min.part.size", "5mb", "s3.upload.max.concurrent.uploads", String.valueOf(MAX_IN_FLIGHT)));
        fs = FlinkS3FileSystems.create("s3", BUCKET, configuration);
    }

    @AfterAll
    void stop() throws Exception {
        FlinkS3FileSystems.close(fs);
        server.close();
    }

    @Test
    void partsOverlapButNeverExceedTheInFlightLimit() throws Exception {
        Path path = new Path("s3://" + BUCKET + "/large-state");
        byte[] part = AbstractS3ProxyFileSystemTest.randomBytes(PART_SIZE, 31);

        try (FSDataOutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
            for (int i = 0; i < PARTS; i++) {
                out.write(part);
            }
            // A writer that buffered everything would get here with at most a few parts uploaded.
            assertThat(server.requestLog().count(RequestKind.UPLOAD_PART))
                    .as("parts started when the last write returned")
                    .isGreaterThanOrEqualTo(PARTS - MAX_IN_FLIGHT - 1);
        }

        assertThat(server.requestLog().peakInFlight(RequestKind.UPLOAD_PART))
                .as("UploadPart requests in flight at once")
                .isEqualTo(MAX_IN_FLIGHT);
        try (S3Client s3 = new S3TestTarget(
                        "S3Proxy", server.endpoint(), server.accessKey(), server.secretKey(), server.region(), BUCKET)
                .sdkClient()) {
            assertThat(s3.headObject(b -> b.bucket(BUCKET).key("large-state")).contentLength())
                    .isEqualTo((long) PARTS * PART_SIZE);
        }
    }
}
