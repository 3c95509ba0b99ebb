package dev.flinks3.it.answers;

import static dev.flinks3.it.answers.RewrittenAnswersServer.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.it.FlinkS3FileSystems;
import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 23, stores and settings that differ from AWS, each at the HTTP boundary: an archive storage class
 * refused at creation, a read of an archived object ({@code InvalidObjectState}), a KMS key policy without
 * {@code kms:Decrypt} (multipart requests answered 403, also found at creation by {@code
 * s3.sse.kms.check-on-create}), and an endpoint whose virtual-host name does not resolve.
 */
class StoreDifferencesTest extends AnswersFileSystemTest {

    private static final int MIB = 1024 * 1024;

    StoreDifferencesTest() {
        super(Map.of("s3.upload.min.part.size", "5mb"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"GLACIER", "deep_archive"})
    void anArchiveStorageClassIsRefusedAtCreation(String storageClass) {
        Throwable failure = catchThrowable(
                () -> RewrittenAnswersServer.fileSystem(server.factory(Map.of("s3.storage-class", storageClass))));

        assertThat(failure)
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'s3.storage-class'")
                .hasMessageContaining(storageClass)
                .hasMessageContaining("restore");
    }

    @Test
    void aReadOfAnArchivedObjectNamesTheStorageClassAndRestore() throws Exception {
        write(fs, path("cold"), "cold".getBytes(StandardCharsets.UTF_8), WriteMode.NO_OVERWRITE);
        server.answers()
                .refuse(
                        RequestKind.GET_OBJECT,
                        request -> true,
                        // The direct GET's refusal, then the SDK's: the archive class refuses every GET.
                        2,
                        403,
                        "InvalidObjectState",
                        "The operation is not valid for the object's storage class");

        Throwable failure = catchThrowable(() -> RewrittenAnswersServer.read(fs, path("cold")));

        assertThat(failure)
                .isInstanceOf(IOException.class)
                .hasMessageContaining("InvalidObjectState")
                .hasMessageContaining("GLACIER")
                .hasMessageContaining("RestoreObject");
    }

    @Test
    void aMultipartUploadRefusedWith403NamesTheKmsPermissions() throws Exception {
        server.answers()
                .refuse(RequestKind.CREATE_MULTIPART_UPLOAD, request -> true, 1, 403, "AccessDenied", "Access Denied");
        byte[] small = "small".getBytes(StandardCharsets.UTF_8);
        write(fs, path("small"), small, WriteMode.NO_OVERWRITE);
        byte[] large = new byte[6 * MIB];
        new Random(3).nextBytes(large);

        Throwable failure = catchThrowable(() -> write(fs, path("large"), large, WriteMode.NO_OVERWRITE));

        assertThat(failure)
                .isInstanceOf(IOException.class)
                .hasMessageContaining("kms:Decrypt")
                .hasMessageContaining("kms:GenerateDataKey");
    }

    @Test
    void theCheckAtCreationFailsTheFilesystemWhereMultipartUploadsAreRefusedAndLeavesNothing() throws Exception {
        AnswerRewriteFilter.Rule kms = server.answers()
                .refuse(RequestKind.UPLOAD_PART, request -> true, 1, 403, "AccessDenied", "Access Denied");
        FileSystemFactory checking = server.factory(Map.of("s3.sse.kms.check-on-create", "true"));
        try {
            Throwable failure = catchThrowable(() -> RewrittenAnswersServer.fileSystem(checking));

            assertThat(failure)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("'s3.sse.kms.check-on-create'")
                    .hasMessageContaining("kms:Decrypt");
            assertThat(kms.applied()).isEqualTo(1);
            assertThat(server.s3()
                            .listMultipartUploads(b -> b.bucket(RewrittenAnswersServer.BUCKET))
                            .uploads())
                    .as("uploads left by the check")
                    .isEmpty();

            // Where multipart uploads work, the check passes: the filesystem is created and nothing is stored.
            long uploadsBefore = server.count(RequestKind.CREATE_MULTIPART_UPLOAD);
            assertThat(RewrittenAnswersServer.fileSystem(checking)).isNotNull();
            assertThat(server.count(RequestKind.CREATE_MULTIPART_UPLOAD)).isEqualTo(uploadsBefore + 1);
            RewrittenAnswersServer.fileSystem(checking);
            assertThat(server.count(RequestKind.CREATE_MULTIPART_UPLOAD))
                    .as("one check per bucket")
                    .isEqualTo(uploadsBefore + 1);
            assertThat(server.s3()
                            .listObjectsV2(
                                    b -> b.bucket(RewrittenAnswersServer.BUCKET).prefix(".flinks3-multipart-check-"))
                            .contents())
                    .isEmpty();
        } finally {
            RewrittenAnswersServer.close(checking);
        }
    }

    @Test
    void anUnresolvableVirtualHostFailsFastNamingPathStyleAccess() throws Exception {
        Configuration configuration = Configuration.fromMap(Map.of(
                "s3.endpoint", "http://flinks3-no-such-host.invalid:9000",
                "s3.access-key", "any",
                "s3.secret-key", "any-secret",
                "s3.region", "us-east-1",
                "s3.path-style-access", "false"));
        FileSystemFactory unresolvable = FlinkS3FileSystems.factory("s3", configuration);
        try {
            FileSystem remote = unresolvable.create(URI.create("s3://bucket/"));
            long start = System.nanoTime();

            Throwable failure = catchThrowable(() -> remote.exists(new Path("s3://bucket/some/key")));

            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(failure).isInstanceOf(IOException.class).hasMessageContaining("s3.path-style-access");
            assertThat(millis).as("ms until the failure").isLessThan(5_000);
        } finally {
            FlinkS3FileSystems.closeClients(unresolvable);
        }
    }
}
