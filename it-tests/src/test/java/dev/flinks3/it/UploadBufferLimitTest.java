package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.NetworkProfile;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code s3.upload.max-buffered-size} bounds the bytes all output streams of a filesystem hold in part
 * buffers together, across streams (where {@link UploadBackPressureTest} shows the per-stream limit of
 * {@code s3.upload.max.concurrent.uploads}): two writers each write {@value #PARTS} parts of 5 MiB at
 * once to a server that behaves like S3 from a cloud VM ({@code wan}), with the default 8 parts in flight
 * allowed per stream. With a limit of three parts (15 MiB) the writers block so that the server never
 * has more than three UploadParts in flight; with the default limit (1 GiB, or a quarter of the heap)
 * it has more. Both objects are whole either way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UploadBufferLimitTest {

    private static final String BUCKET = "buffer-limit";
    private static final int PART_SIZE = 5 * 1024 * 1024;
    private static final int PARTS = 5;
    private static final int WRITERS = 2;
    private static final int LIMIT_PARTS = 3;

    private EmbeddedS3Server server;
    private S3TestTarget target;

    @BeforeAll
    void startServer() {
        server = EmbeddedS3Server.builder()
                .profile(NetworkProfile.WAN)
                .bucket(BUCKET)
                .start();
        target = new S3TestTarget(
                "S3Proxy (wan)", server.endpoint(), server.accessKey(), server.secretKey(), server.region(), BUCKET);
    }

    @AfterAll
    void stopServer() throws Exception {
        server.close();
    }

    @Test
    @Timeout(120)
    void aLimitOfThreePartsKeepsAtMostThreeInFlightAcrossStreams() throws Exception {
        assertThat(peakPartsInFlight(
                        Map.of("s3.upload.max-buffered-size", String.valueOf(LIMIT_PARTS * PART_SIZE)), "limited"))
                .as("UploadParts in flight at once")
                .isBetween(1, LIMIT_PARTS);
    }

    @Test
    @Timeout(120)
    void theDefaultLimitLetsTheStreamsHaveMoreInFlight() throws Exception {
        assertThat(peakPartsInFlight(Map.of(), "default"))
                .as("UploadParts in flight at once")
                .isGreaterThan(LIMIT_PARTS);
    }

    /** Writes {@value #WRITERS} files at once with a filesystem of {@code options}; the most parts the server had in flight. */
    private int peakPartsInFlight(Map<String, String> options, String prefix) throws Exception {
        Map<String, String> withParts = new HashMap<>(options);
        withParts.put("s3.upload.min.part.size", "5 mb");
        FileSystemFactory factory = FlinkS3FileSystems.factory("s3", target.flinkConfiguration(withParts));
        try {
            FileSystem fs = factory.create(java.net.URI.create("s3://" + BUCKET + "/"));
            byte[] part = AbstractS3ProxyFileSystemTest.randomBytes(PART_SIZE, 11);
            server.requestLog().clear();
            List<CompletableFuture<Void>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                Path file = new Path("s3://" + BUCKET + "/" + prefix + "/file-" + w);
                writers.add(CompletableFuture.runAsync(() -> write(fs, file, part)));
            }
            CompletableFuture.allOf(writers.toArray(new CompletableFuture[0])).get();

            try (S3Client s3 = target.sdkClient()) {
                for (int w = 0; w < WRITERS; w++) {
                    String key = prefix + "/file-" + w;
                    assertThat(s3.headObject(b -> b.bucket(BUCKET).key(key)).contentLength())
                            .as("length of %s", key)
                            .isEqualTo((long) PARTS * PART_SIZE);
                }
            }
            return server.requestLog().peakInFlight(RequestKind.UPLOAD_PART);
        } finally {
            FlinkS3FileSystems.closeClients(factory);
        }
    }

    private static void write(FileSystem fs, Path file, byte[] part) {
        try (FSDataOutputStream out = fs.create(file, WriteMode.NO_OVERWRITE)) {
            for (int i = 0; i < PARTS; i++) {
                out.write(part);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
