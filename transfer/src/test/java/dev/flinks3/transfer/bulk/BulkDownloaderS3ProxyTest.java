package dev.flinks3.transfer.bulk;

import static dev.flinks3.transfer.sdk.SdkObjectClientS3ProxyTest.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.sdk.S3ClientOwner;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link BulkDownloader} against S3Proxy: our ranged GETs on each HTTP client, and the Transfer
 * Manager's downloadFile on the CRT-based S3 client.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BulkDownloaderS3ProxyTest {

    private static final String BUCKET = "bulk-download";
    private static final int MIB = 1024 * 1024;

    private static EmbeddedS3Server server;

    @TempDir
    Path localDir;

    @BeforeAll
    static void start() {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void downloadsEveryFileWithExactBytes(Engine engine) throws IOException {
        try (S3ClientOwner owner = owner(engine)) {
            ObjectClient client = owner.objectClient();
            Map<S3Location, byte[]> objects = new LinkedHashMap<>();
            int[] sizes = {0, 1, 100_000, 3 * MIB + 7};
            for (int size : sizes) {
                S3Location location = location(engine, "file-" + size);
                client.put(location, ByteBuffer.wrap(randomBytes(size)), WriteCondition.NONE)
                        .join();
                objects.put(location, randomBytes(size));
            }
            S3Location multipart = location(engine, "multipart");
            objects.put(multipart, uploadInParts(client, multipart, 11 * MIB + 3));

            List<BulkDownloader.FileCopy> files = new ArrayList<>();
            objects.keySet()
                    .forEach(source -> files.add(BulkDownloader.FileCopy.of(
                            source,
                            localDir.resolve("nested/dirs").resolve(source.key().replace('/', '_')))));

            server.requestLog().clear();
            owner.bulkDownloader().download(files);

            // 16 GETs in flight for 5 files: 3 lanes each, so the 11 MiB object comes in 5 MiB ranges.
            assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                    .filteredOn(get -> get.key().equals(multipart.key()))
                    .hasSize(3)
                    .allSatisfy(get -> assertThat(get.header("range")).isPresent());
            for (BulkDownloader.FileCopy file : files) {
                assertThat(Files.readAllBytes(file.target()))
                        .as(file.toString())
                        .isEqualTo(objects.get(file.source()));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void missingObjectFailsNamingItAndLeavesNoPartialFile(Engine engine) throws IOException {
        try (S3ClientOwner owner = owner(engine)) {
            S3Location present = location(engine, "present");
            owner.objectClient()
                    .put(present, ByteBuffer.wrap(randomBytes(1000)), WriteCondition.NONE)
                    .join();
            S3Location missing = location(engine, "missing");
            Path missingTarget = localDir.resolve("missing");

            assertThatThrownBy(() -> owner.bulkDownloader()
                            .download(List.of(
                                    BulkDownloader.FileCopy.of(present, localDir.resolve("present")),
                                    BulkDownloader.FileCopy.of(missing, missingTarget))))
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessageContaining(missing.toString());

            assertThat(missingTarget).doesNotExist();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void failedDownloadDeletesItsFile(Engine engine) throws IOException {
        try (S3ClientOwner owner = owner(engine)) {
            S3Location location = location(engine, "denied");
            owner.objectClient()
                    .put(location, ByteBuffer.wrap(randomBytes(1000)), WriteCondition.NONE)
                    .join();
            Path target = localDir.resolve("denied");
            Files.write(target, new byte[] {1, 2, 3});
            // Twice: with the SDK's clients the GET is sent directly first and its 403 asked again through the SDK.
            server.failNext(
                    RequestKind.GET_OBJECT,
                    engine.client == ClientSettings.ClientType.SDK ? 2 : 1,
                    403,
                    "AccessDenied");
            try {
                assertThatThrownBy(() ->
                                owner.bulkDownloader().download(List.of(BulkDownloader.FileCopy.of(location, target))))
                        .isInstanceOf(S3RequestException.class)
                        .hasMessageContaining(location.toString())
                        .hasMessageContaining("AccessDenied");
            } finally {
                server.clearFaults();
            }
            assertThat(target).doesNotExist();
        }
    }

    /** The S3 client and HTTP client a download runs on. */
    enum Engine {
        SDK_ON_CRT_HTTP(ClientSettings.ClientType.SDK, ClientSettings.HttpClientType.CRT),
        SDK_ON_NETTY(ClientSettings.ClientType.SDK, ClientSettings.HttpClientType.NETTY),
        /** The Transfer Manager's downloadFile on the CRT-based S3 client. */
        CRT_S3_CLIENT(ClientSettings.ClientType.CRT, ClientSettings.HttpClientType.CRT);

        final ClientSettings.ClientType client;
        final ClientSettings.HttpClientType http;

        Engine(ClientSettings.ClientType client, ClientSettings.HttpClientType http) {
            this.client = client;
            this.http = http;
        }
    }

    private static S3ClientOwner owner(Engine engine) {
        // 5 MiB ranges (the CRT-based S3 client's are its part size): the 11 MiB object downloads as
        // three parallel ranged GETs.
        return new S3ClientOwner(TestSettings.forServer(server, engine.http)
                .client(c -> c.client(engine.client))
                .read(r -> r.bulkCopyConcurrency(16).bulkCopyRangeBytes(UploadSettings.MIN_PART_SIZE))
                .upload(u -> u.partSizeBytes(UploadSettings.MIN_PART_SIZE))
                .build());
    }

    private static S3Location location(Engine engine, String name) {
        return S3Location.of("s3", BUCKET, engine + "/" + name);
    }

    /** Uploads {@code length} bytes as 5 MiB parts, so the Transfer Manager sees a multipart object. */
    private static byte[] uploadInParts(ObjectClient client, S3Location location, int length) {
        byte[] data = randomBytes(length);
        String uploadId = client.createMultipartUpload(location).join();
        List<CompletedPart> parts = new ArrayList<>();
        int partSize = (int) UploadSettings.MIN_PART_SIZE;
        for (int offset = 0, number = 1; offset < length; offset += partSize, number++) {
            ByteBuffer body = ByteBuffer.wrap(data, offset, Math.min(partSize, length - offset));
            parts.add(client.uploadPart(location, uploadId, number, body).join());
        }
        client.completeMultipartUpload(location, uploadId, parts, WriteCondition.NONE)
                .join();
        return data;
    }
}
