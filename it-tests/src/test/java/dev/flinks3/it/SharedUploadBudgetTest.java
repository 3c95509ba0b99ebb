package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.NetworkProfile;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import javax.management.MBeanServer;
import javax.management.ObjectName;
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
 * Issue 24: output streams of {@code s3://} and {@code s3a://} in one process draw on one upload budget.
 * {@value #WRITERS} writers, half on each scheme, each write {@value #PARTS} parts of 5 MiB at once to a
 * server that answers like S3 from a cloud VM ({@code wan}), with the default 8 parts in flight allowed
 * per stream, under a limit of {@value #LIMIT_MIB} MiB of part buffers: room for every stream's first
 * part (the budget charges a buffer its heap footprint, whole G1 regions, so 5 MiB parts cost 6 or 8 MiB)
 * and a few more. Both schemes share the configuration's client, so one MBean reads the budget's own
 * accounting: its peak never passed the limit, and the server never has more UploadParts in flight than the
 * limit holds parts: two budgets, one per scheme, would allow twice that.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(180)
class SharedUploadBudgetTest {

    private static final MBeanServer MBEANS = ManagementFactory.getPlatformMBeanServer();
    private static final String BUCKET = "shared-budget";
    private static final int PART_SIZE = 5 * 1024 * 1024;
    private static final int PARTS = 3;
    private static final int WRITERS = 4;
    /** A limit no other test class of this JVM uses, so this class's runtime (and budget) is its own. */
    private static final long LIMIT_MIB = 41;

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
    void streamsOnBothSchemesShareOneBudgetAndNeverHoldMoreThanItsLimit() throws Exception {
        long limit = LIMIT_MIB * 1024 * 1024;
        org.apache.flink.configuration.Configuration config = target.flinkConfiguration(
                Map.of("s3.upload.min.part.size", "5 mb", "s3.upload.max-buffered-size", String.valueOf(limit)));
        FileSystemFactory s3Factory = FlinkS3FileSystems.factory("s3", config);
        FileSystemFactory s3aFactory = FlinkS3FileSystems.factory("s3a", config);
        try {
            FileSystem s3 = s3Factory.create(URI.create("s3://" + BUCKET + "/"));
            FileSystem s3a = s3aFactory.create(URI.create("s3a://" + BUCKET + "/"));
            byte[] part = AbstractS3ProxyFileSystemTest.randomBytes(PART_SIZE, 31);
            server.requestLog().clear();

            List<CompletableFuture<Void>> writers = new ArrayList<>();
            List<String> keys = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                boolean onS3 = w % 2 == 0;
                String key = "shared/file-" + w;
                keys.add(key);
                Path file = new Path((onS3 ? "s3" : "s3a") + "://" + BUCKET + "/" + key);
                FileSystem fs = onS3 ? s3 : s3a;
                writers.add(CompletableFuture.runAsync(() -> write(fs, file, part)));
            }
            CompletableFuture.allOf(writers.toArray(new CompletableFuture[0])).get();

            try (S3Client client = target.sdkClient()) {
                for (String key : keys) {
                    assertThat(client.headObject(b -> b.bucket(BUCKET).key(key)).contentLength())
                            .as("length of %s", key)
                            .isEqualTo((long) PARTS * PART_SIZE);
                }
            }
            Set<ObjectName> beans = fileSystemBeans();
            assertThat(beans)
                    .extracting(name -> name.getKeyProperty("scheme"))
                    .as("the MBeans of this runtime's client, which both schemes share")
                    .containsExactly("s3");
            List<Long> peaks = new ArrayList<>();
            for (ObjectName bean : beans) {
                assertThat(longOf(bean, "BufferLimitBytes"))
                        .as("limit of %s", bean)
                        .isEqualTo(limit);
                assertThat(longOf(bean, "BufferedBytes"))
                        .as("buffered after the writes, %s", bean)
                        .isZero();
                peaks.add(longOf(bean, "PeakBufferedBytes"));
            }
            assertThat(peaks)
                    .as("peak part-buffer bytes as each MBean of the runtime reads them: one budget")
                    .allSatisfy(peak -> assertThat(peak).isEqualTo(peaks.get(0)));
            assertThat(peaks.get(0))
                    .as("peak part-buffer bytes of both schemes' streams together")
                    .isGreaterThanOrEqualTo((long) PART_SIZE * 2)
                    .isLessThanOrEqualTo(limit);
            assertThat(server.requestLog().peakInFlight(RequestKind.UPLOAD_PART))
                    .as("UploadParts in flight at once, both schemes together")
                    .isBetween(1, (int) (limit / PART_SIZE));
        } finally {
            FlinkS3FileSystems.closeClients(s3Factory);
            FlinkS3FileSystems.closeClients(s3aFactory);
        }
    }

    /** The file-system MBeans of this class's endpoint (other test classes use servers of their own). */
    private Set<ObjectName> fileSystemBeans() throws Exception {
        URI endpoint = server.endpoint();
        return MBEANS.queryNames(
                new ObjectName("dev.flinks3:type=S3FileSystem,endpoint=" + endpoint.getHost() + "_" + endpoint.getPort()
                        + ",*"),
                null);
    }

    private static long longOf(ObjectName name, String attribute) throws Exception {
        return ((Number) MBEANS.getAttribute(name, attribute)).longValue();
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
