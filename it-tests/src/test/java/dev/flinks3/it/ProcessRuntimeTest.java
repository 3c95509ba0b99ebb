package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flinks3.multipart.HeapFootprint;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.model.DeleteBucketRequest;

/**
 * Issue 24: one runtime per process. The {@code s3://} and {@code s3a://} factories and two bucket
 * configurations (a bucket with a per-bucket key of its own) in one JVM share one HTTP connection pool
 * and one upload budget: counted at the server (the connections a TCP proxy in front of S3Proxy sees)
 * and in the MBeans (the budget's gauges of every client read the same bytes). Both schemes share the
 * client of each configuration (one client and MBean per bucket configuration, named with the scheme that
 * built it). Closing one factory leaves the other working on the shared client; the last close releases
 * the pool (the server sees every connection closed) and unregisters every MBean.
 */
@Timeout(120)
class ProcessRuntimeTest extends AbstractS3ProxyFileSystemTest {

    private static final MBeanServer MBEANS = ManagementFactory.getPlatformMBeanServer();

    private final String otherBucket = "runtime-" + UUID.randomUUID();

    @BeforeAll
    void createOtherBucket() {
        s3.createBucket(b -> b.bucket(otherBucket));
    }

    @AfterAll
    void deleteOtherBucket() {
        s3.listObjectsV2Paginator(b -> b.bucket(otherBucket))
                .contents()
                .forEach(o -> s3.deleteObject(d -> d.bucket(otherBucket).key(o.key())));
        s3.deleteBucket(DeleteBucketRequest.builder().bucket(otherBucket).build());
    }

    @Test
    void bothSchemesAndTwoBucketConfigurationsShareOnePoolAndOneBudget() throws Exception {
        try (ResettingTcpProxy proxy = new ResettingTcpProxy(target.endpoint())) {
            Configuration config = configuration(proxy);
            FileSystemFactory s3Factory = FlinkS3FileSystems.factory("s3", config);
            FileSystemFactory s3aFactory = FlinkS3FileSystems.factory("s3a", config);
            try {
                List<FileSystem> fileSystems = new ArrayList<>();
                List<Path> files = new ArrayList<>();
                for (FileSystemFactory factory : List.of(s3Factory, s3aFactory)) {
                    for (String bucket : List.of(target.bucket(), otherBucket)) {
                        String scheme = factory.getScheme();
                        fileSystems.add(factory.create(URI.create(scheme + "://" + bucket + "/")));
                        files.add(new Path(scheme + "://" + bucket + "/ProcessRuntimeTest/" + UUID.randomUUID()));
                    }
                }
                assertThat(fileSystemBeans(proxy))
                        .as("one client (and MBean) per bucket configuration, shared by both schemes")
                        .hasSize(2);

                // Rounds of one request after the other from the four filesystems: pools of their own would
                // each open a connection (four at least). One pool hands its idle connection to the next
                // filesystem; as a connection goes back to the pool just after its answer reached
                // the caller, the next request may find it still busy and open a second one, never more.
                for (int round = 0; round < 5; round++) {
                    for (int i = 0; i < fileSystems.size(); i++) {
                        assertThat(fileSystems.get(i).exists(files.get(i))).isFalse();
                    }
                }
                assertThat(proxy.firstRequestBytes())
                        .as("connections the server saw opened for the four filesystems' sequential requests")
                        .hasSizeBetween(1, 2);

                // A stream of s3a:// in the other bucket holds part bytes: every client's MBean counts
                // them, as the budget is the one of the process.
                byte[] data = randomBytes(6 * MIB, 24);
                FileSystem writer = fileSystems.get(3);
                try (FSDataOutputStream out = writer.create(files.get(3), WriteMode.NO_OVERWRITE)) {
                    out.write(data);
                    await().atMost(Duration.ofSeconds(60))
                            .until(() -> longOf(
                                                    fileSystemBeans(proxy)
                                                            .iterator()
                                                            .next(),
                                                    "PartsInFlight")
                                            == 0
                                    && longOf(fileSystemBeans(proxy).iterator().next(), "BufferedBytes") > 0);
                    List<Long> buffered = new ArrayList<>();
                    for (ObjectName bean : fileSystemBeans(proxy)) {
                        buffered.add(longOf(bean, "BufferedBytes"));
                    }
                    assertThat(buffered)
                            .as("bytes buffered as each client's MBean reads them")
                            .hasSize(2)
                            .allSatisfy(bytes -> assertThat(bytes).isEqualTo(buffered.get(0)));
                    assertThat(buffered.get(0))
                            .as("the open stream's buffers: at most two 5 MiB parts, each charged its heap"
                                    + " footprint (whole G1 regions)")
                            .isBetween(1L, 2 * HeapFootprint.ofThisJvm().of(5L * MIB));
                }
                assertThat(Arrays.equals(read(fileSystems.get(1), files.get(3)), data))
                        .as("written by s3a:// in the other bucket, read by s3:// with its own configuration")
                        .isTrue();
                for (ObjectName bean : fileSystemBeans(proxy)) {
                    assertThat(longOf(bean, "BufferedBytes")).isZero();
                }
            } finally {
                FlinkS3FileSystems.closeClients(s3Factory);
                FlinkS3FileSystems.closeClients(s3aFactory);
            }
        }
    }

    @Test
    void closingOneFactoryLeavesTheOtherWorkingAndTheLastCloseReleasesThePool() throws Exception {
        try (ResettingTcpProxy proxy = new ResettingTcpProxy(target.endpoint())) {
            Configuration config = configuration(proxy);
            // A process-wide value no other configuration of this JVM has: a runtime of this test's own
            // (other test classes leave their filesystems open, which keeps theirs alive).
            config.setString("s3.metrics.log-interval", "17 min");
            FileSystemFactory s3Factory = FlinkS3FileSystems.factory("s3", config);
            FileSystemFactory s3aFactory = FlinkS3FileSystems.factory("s3a", config);
            try {
                FileSystem s3 = s3Factory.create(URI.create("s3://" + target.bucket() + "/"));
                FileSystem s3a = s3aFactory.create(URI.create("s3a://" + target.bucket() + "/"));
                Path viaS3 = new Path("s3://" + target.bucket() + "/ProcessRuntimeTest/" + UUID.randomUUID());
                Path viaS3a = new Path("s3a://" + target.bucket() + "/ProcessRuntimeTest/" + UUID.randomUUID());
                byte[] data = randomBytes(MIB, 7);
                write(s3, viaS3, data);

                FlinkS3FileSystems.closeClients(s3Factory);

                assertThat(fileSystemBeans(proxy))
                        .as("the client both schemes share, still held by s3a://, named by s3:// that built it")
                        .singleElement()
                        .satisfies(name ->
                                assertThat(name.getKeyProperty("scheme")).isEqualTo("s3"));
                write(s3a, viaS3a, data);
                assertThat(Arrays.equals(read(s3a, viaS3), data)).isTrue();
                assertThat(proxy.openConnections())
                        .as("the shared pool stays open for s3a://")
                        .isPositive();

                FlinkS3FileSystems.closeClients(s3aFactory);

                assertThat(fileSystemBeans(proxy)).as("no MBean left").isEmpty();
                await().atMost(Duration.ofSeconds(30))
                        .alias("the server sees the pool's connections closed")
                        .until(() -> proxy.openConnections() == 0);
                assertThat(s3Object(viaS3a)).isEqualTo(data);
            } finally {
                FlinkS3FileSystems.closeClients(s3Factory);
                FlinkS3FileSystems.closeClients(s3aFactory);
            }
        }
    }

    /**
     * The target through {@code proxy}, with a per-bucket key for the other bucket (a retry limit of its
     * own, so a client of its own that S3Proxy serves like the global one) and a small part size.
     */
    private Configuration configuration(ResettingTcpProxy proxy) {
        return target.via(proxy.endpoint())
                .flinkConfiguration(Map.of(
                        "s3.upload.min.part.size", "5mb", "s3.bucket." + otherBucket + ".retry.max-num-retries", "5"));
    }

    private static void write(FileSystem fs, Path path, byte[] data) throws Exception {
        try (FSDataOutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
            out.write(data);
        }
    }

    private static byte[] read(FileSystem fs, Path path) throws Exception {
        try (InputStream in = fs.open(path)) {
            return in.readAllBytes();
        }
    }

    private byte[] s3Object(Path path) {
        return s3.getObjectAsBytes(b -> b.bucket(path.toUri().getAuthority())
                        .key(path.toUri().getPath().substring(1)))
                .asByteArray();
    }

    private static Set<ObjectName> fileSystemBeans(ResettingTcpProxy proxy) throws Exception {
        URI endpoint = proxy.endpoint();
        return MBEANS.queryNames(
                new ObjectName("dev.flinks3:type=S3FileSystem,endpoint=" + endpoint.getHost() + "_" + endpoint.getPort()
                        + ",*"),
                null);
    }

    private static long longOf(ObjectName name, String attribute) throws Exception {
        return ((Number) MBEANS.getAttribute(name, attribute)).longValue();
    }
}
