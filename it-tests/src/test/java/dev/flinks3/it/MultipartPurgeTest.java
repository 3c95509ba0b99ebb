package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.core.fs.FileSystemFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * {@code s3.multipart.purge.age} against S3Proxy: creating the filesystem of the checkpoint directory's bucket
 * aborts the multipart uploads under the checkpoint and savepoint directories that are older than the age, and
 * leaves younger ones and every upload outside those directories (a FileSink's part file in progress) open.
 * Without the option nothing is aborted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class MultipartPurgeTest {

    private static final String BUCKET = "multipart-purge";

    private EmbeddedS3Server server;
    private S3TestTarget target;
    private S3Client s3;

    @BeforeAll
    void start() {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
        target = new S3TestTarget(
                "S3Proxy", server.endpoint(), server.accessKey(), server.secretKey(), server.region(), BUCKET);
        s3 = target.sdkClient();
    }

    @AfterAll
    void stop() throws Exception {
        try (EmbeddedS3Server stopping = server) {
            s3.close();
        }
    }

    @Test
    void abortsOnlyOldUploadsUnderTheCheckpointAndSavepointDirectories() throws Exception {
        String run = "purge/";
        start(run + "checkpoints/job/chk-3/old-stream");
        start(run + "savepoints/savepoint-1/old-stream");
        start(run + "out/.part-0-0.inprogress.old");
        // Older than the age below by the time the filesystem is created.
        Thread.sleep(6_000);
        start(run + "checkpoints/job/chk-9/young-stream");
        FileSystemFactory factory = FlinkS3FileSystems.factory(
                "s3",
                target.flinkConfiguration(Map.of(
                        "s3.multipart.purge.age", "5 s",
                        "execution.checkpointing.dir", "s3://" + BUCKET + "/" + run + "checkpoints",
                        "execution.checkpointing.savepoint-dir", "s3://" + BUCKET + "/" + run + "savepoints")));
        try {
            server.requestLog().clear();

            factory.create(URI.create("s3://" + BUCKET + "/"));

            // A second filesystem of the same factory and bucket lists nothing again.
            factory.create(URI.create("s3://" + BUCKET + "/other"));
            assertThat(server.requestLog().count(RequestKind.LIST_MULTIPART_UPLOADS))
                    .as("one listing per directory, once")
                    .isEqualTo(2);
            assertThat(server.requestLog().count(RequestKind.ABORT_MULTIPART_UPLOAD))
                    .isEqualTo(2);
            assertThat(openUnder(run))
                    .containsExactlyInAnyOrder(
                            run + "checkpoints/job/chk-9/young-stream", run + "out/.part-0-0.inprogress.old");
        } finally {
            FlinkS3FileSystems.closeClients(factory);
        }
    }

    @Test
    void withoutTheOptionNothingIsListedOrAborted() throws Exception {
        String run = "no-purge/";
        start(run + "checkpoints/job/chk-1/old-stream");
        FileSystemFactory factory = FlinkS3FileSystems.factory(
                "s3",
                target.flinkConfiguration(
                        Map.of("execution.checkpointing.dir", "s3://" + BUCKET + "/" + run + "checkpoints")));
        try {
            server.requestLog().clear();

            factory.create(URI.create("s3://" + BUCKET + "/"));

            assertThat(server.requestLog().count(RequestKind.LIST_MULTIPART_UPLOADS))
                    .isZero();
            assertThat(openUnder(run)).containsExactly(run + "checkpoints/job/chk-1/old-stream");
        } finally {
            FlinkS3FileSystems.closeClients(factory);
        }
    }

    private void start(String key) {
        s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key));
    }

    private List<String> openUnder(String prefix) {
        return s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix(prefix)).uploads().stream()
                .map(MultipartUpload::key)
                .collect(Collectors.toList());
    }
}
