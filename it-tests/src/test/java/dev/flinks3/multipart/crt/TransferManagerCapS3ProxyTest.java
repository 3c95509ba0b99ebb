package dev.flinks3.multipart.crt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.flinks3.fs.S3FileSystemSettings;
import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.sdk.S3ClientOwner;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * A stream the S3 Transfer Manager uploads ({@code s3.client: crt}) holds at most 10,000 parts of the part size;
 * here that cap is lowered to 12 MiB (5 MiB parts) through the package's hook, on the shared S3Proxy. A stream of
 * exactly the cap is the Transfer Manager's multipart upload and reads back byte for byte; a write beyond it fails
 * the stream with a message naming the cap and what to change, and its close aborts the upload: no object at the
 * key, no upload open.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransferManagerCapS3ProxyTest {

    private static final int MIB = 1024 * 1024;
    private static final long CAP = 12L * MIB;

    private S3ClientOwner owner;
    private TransferManagerUploads uploads;
    private S3Client s3;
    private String prefix;

    @BeforeAll
    void start() throws IOException {
        Configuration configuration = new Configuration(SharedS3ProxyTarget.flinkConfiguration());
        configuration.setString("s3.client", "crt");
        configuration.setString("s3.upload.min.part.size", "5mb");
        S3Settings settings =
                S3FileSystemSettings.fromConfiguration(configuration).s3();
        owner = new S3ClientOwner(settings);
        UploadEngine engine = new UploadEngine(owner.objectClient(), settings.upload());
        uploads = (TransferManagerUploads) CreateStreams.of(owner, engine, settings);
        s3 = SharedS3ProxyTarget.sdkClient();
        prefix = getClass().getSimpleName() + "/" + UUID.randomUUID() + "/";
        // One PutObject of our engine, whose echoed CRC32C lets the Transfer Manager take streams.
        try (var first = engine.openStream(location("first"), WriteCondition.NONE)) {
            first.write(new byte[] {1, 2, 3});
        }
    }

    @AfterAll
    void stop() throws Exception {
        if (owner != null) {
            owner.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void aStreamOfExactlyTheCapIsTheTransferManagersUpload() throws IOException {
        S3Location target = location("at-cap");
        byte[] data = bytes((int) CAP, 1);

        TransferManagerUploadStream out = uploads.openStream(target, WriteCondition.NONE, CAP);
        writeInSmallWrites(out, data, data.length);
        out.close();

        assertThat(out.usesTransferManager()).isTrue();
        assertThat(requestsFor(target))
                .extracting(RequestRecord::kind)
                .contains(RequestKind.CREATE_MULTIPART_UPLOAD, RequestKind.COMPLETE_MULTIPART_UPLOAD);
        assertThat(s3.getObjectAsBytes(b -> b.bucket(target.bucket()).key(target.key()))
                        .asByteArray())
                .isEqualTo(data);
    }

    @Test
    void aWriteBeyondTheCapFailsTheStreamNamingTheCapAndLeavesNothing() throws IOException {
        S3Location target = location("beyond-cap");
        byte[] data = bytes((int) CAP + MIB, 2);

        TransferManagerUploadStream out = uploads.openStream(target, WriteCondition.NONE, CAP);
        Throwable failure = catchThrowable(() -> writeInSmallWrites(out, data, data.length));
        Throwable closeFailure = catchThrowable(out::close);

        assertThat(out.usesTransferManager()).isTrue();
        assertThat(failure)
                .isInstanceOf(IOException.class)
                .hasMessageContaining("at most " + CAP + " bytes")
                .hasMessageContaining("Raise s3.upload.min.part.size")
                .hasMessageContaining("s3.client: sdk");
        assertThat(closeFailure).isInstanceOf(IOException.class).hasCause(failure);
        // aws-c-s3 may send the AbortMultipartUpload a moment after the upload's future failed.
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(requestsFor(target))
                        .extracting(RequestRecord::kind)
                        .contains(RequestKind.ABORT_MULTIPART_UPLOAD)
                        .doesNotContain(RequestKind.COMPLETE_MULTIPART_UPLOAD));
        assertThat(s3.listMultipartUploads(b -> b.bucket(target.bucket()).prefix(prefix))
                        .uploads())
                .as("no upload left open")
                .isEmpty();
        assertThat(catchThrowable(
                        () -> s3.headObject(b -> b.bucket(target.bucket()).key(target.key()))))
                .as("no object at the key")
                .isInstanceOf(NoSuchKeyException.class);
    }

    private static void writeInSmallWrites(TransferManagerUploadStream out, byte[] data, int length)
            throws IOException {
        for (int offset = 0; offset < length; offset += 64 * 1024) {
            out.write(data, offset, Math.min(64 * 1024, length - offset));
        }
    }

    private List<RequestRecord> requestsFor(S3Location target) {
        return SharedS3ProxyTarget.server().requestLog().entries().stream()
                .filter(r -> target.key().equals(r.key()))
                .toList();
    }

    private S3Location location(String name) {
        return S3Location.of("s3", SharedS3ProxyTarget.bucket(), prefix + name);
    }

    private static byte[] bytes(int length, long seed) {
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        return data;
    }
}
