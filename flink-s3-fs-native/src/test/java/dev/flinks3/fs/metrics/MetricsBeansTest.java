package dev.flinks3.fs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.read.ReadAheadBudget;
import dev.flinks3.transfer.sdk.S3RequestMetrics;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Names, attributes and unregistration of the metrics MBeans, on an MBean server of the test's own. */
@Timeout(30)
class MetricsBeansTest {

    private final MBeanServer server = MBeanServerFactory.newMBeanServer();

    @Test
    void oneFileSystemBeanAndOneBeanPerOperationUnderTheDocumentedNames() throws Exception {
        ReadAheadBudget readAhead = new ReadAheadBudget(1000);
        readAhead.tryAcquire(4, 100);

        try (MetricsBeans beans = MetricsBeans.register(server, "s3", "127.0.0.1_9000", metrics(readAhead))) {
            ObjectName fs = new ObjectName("dev.flinks3:type=S3FileSystem,scheme=s3,endpoint=127.0.0.1_9000");
            assertThat(beans.fileSystemName()).isEqualTo(fs);
            assertThat(server.getAttribute(fs, "ReadAheadBytes")).isEqualTo(400L);
            assertThat(server.getAttribute(fs, "PeakReadAheadBytes")).isEqualTo(400L);
            assertThat(server.getAttribute(fs, "ReadAheadLimitBytes")).isEqualTo(1000L);
            assertThat(server.getAttribute(fs, "BufferLimitBytes")).isEqualTo(64L * 1024 * 1024);
            assertThat(server.getAttribute(fs, "RequestsTotal")).isEqualTo(0L);
            ObjectName uploadPart = new ObjectName(
                    "dev.flinks3:type=S3Operation,scheme=s3,endpoint=127.0.0.1_9000,operation=UploadPart");
            assertThat(server.isRegistered(uploadPart)).isTrue();
            assertThat(server.getAttribute(uploadPart, "LatencySecondsTotal")).isEqualTo(0.0);
            assertThat(server.getAttribute(uploadPart, "ConnectionWaitSecondsTotal"))
                    .isEqualTo(0.0);
            assertThat(server.getAttribute(uploadPart, "ConnectionWaitsTotal")).isEqualTo(0L);
            assertThat(server.getAttribute(uploadPart, "TimeToFirstByteSecondsTotal"))
                    .isEqualTo(0.0);
            assertThat(server.getAttribute(uploadPart, "BodySecondsTotal")).isEqualTo(0.0);
            // The latency histogram: one cumulative bucket per bound, as Prometheus' le labels, and +Inf.
            List<String> attributes = Arrays.stream(
                            server.getMBeanInfo(uploadPart).getAttributes())
                    .map(MBeanAttributeInfo::getName)
                    .toList();
            assertThat(attributes)
                    .contains("LatencySecondsLe_0.005", "LatencySecondsLe_1.0", "LatencySecondsLe_60.0")
                    .contains("LatencySecondsLe_+Inf")
                    .allSatisfy(name -> assertThat(name).matches("[A-Za-z]+Total|LatencySecondsLe_([0-9.]+|\\+Inf)"));
            assertThat(server.getAttribute(uploadPart, "LatencySecondsLe_+Inf")).isEqualTo(0L);
            assertThat(server.queryNames(new ObjectName("dev.flinks3:type=S3Operation,*"), null))
                    .hasSize(S3RequestMetrics.OPERATIONS.size() + 1);
            // The HTTP pools, before any request: every reading 0.
            ObjectName async = new ObjectName("dev.flinks3:type=HttpPool,scheme=s3,endpoint=127.0.0.1_9000,pool=async");
            assertThat(server.getAttribute(async, "LeasedConnections")).isEqualTo(0);
            assertThat(server.getAttribute(async, "IdleConnections")).isEqualTo(0);
            assertThat(server.isRegistered(new ObjectName(
                            "dev.flinks3:type=HttpPool,scheme=s3,endpoint=127.0.0.1_9000,pool=blocking")))
                    .isTrue();
            assertThat(server.getAttribute(fs, "MultipartUploadsOpen")).isEqualTo(0L);
            assertThat(server.getAttribute(fs, "BackPressureBlockedSecondsTotal"))
                    .isEqualTo(0.0);
        }
        assertThat(server.queryNames(new ObjectName("dev.flinks3:*"), null)).isEmpty();
    }

    @Test
    void twoOwnersOfOneSchemeAndEndpointAreToldApartAndSchemesNeverCollide() throws Exception {
        try (MetricsBeans first = MetricsBeans.register(server, "s3", "minio_9000", metrics(new ReadAheadBudget(0)));
                MetricsBeans second =
                        MetricsBeans.register(server, "s3", "minio_9000", metrics(new ReadAheadBudget(0)));
                MetricsBeans hadoop =
                        MetricsBeans.register(server, "s3a", "minio_9000", metrics(new ReadAheadBudget(0)))) {
            assertThat(first.fileSystemName().getKeyProperty("instance")).isNull();
            assertThat(second.fileSystemName().getKeyProperty("instance")).isEqualTo("2");
            assertThat(hadoop.fileSystemName().getKeyProperty("instance")).isNull();
            assertThat(hadoop.fileSystemName().getKeyProperty("scheme")).isEqualTo("s3a");
            assertThat(second.names()).allMatch(name -> "2".equals(name.getKeyProperty("instance")));

            second.close();
            second.close();

            assertThat(server.queryNames(new ObjectName("dev.flinks3:type=S3FileSystem,*"), null))
                    .containsExactlyInAnyOrder(first.fileSystemName(), hadoop.fileSystemName());
        }
    }

    @Test
    void theEndpointKeyIsHostAndPortOnly() {
        assertThat(MetricsBeans.endpointKey(URI.create("http://user:secret@127.0.0.1:9000/path?x=1"), "us-east-1"))
                .isEqualTo("127.0.0.1_9000");
        assertThat(MetricsBeans.endpointKey(URI.create("https://s3.eu-west-1.amazonaws.com"), "eu-west-1"))
                .isEqualTo("s3.eu-west-1.amazonaws.com");
        assertThat(MetricsBeans.endpointKey(URI.create("http://[::1]:9000"), "us-east-1"))
                .isEqualTo("___1__9000");
        assertThat(MetricsBeans.endpointKey(null, "eu-central-1")).isEqualTo("aws-eu-central-1");
    }

    private static S3FileSystemMetrics metrics(ReadAheadBudget readAhead) {
        UploadSettings settings = UploadSettings.builder()
                .partSizeBytes(UploadSettings.MIN_PART_SIZE)
                .maxBufferedBytesPerProcess(64L * 1024 * 1024)
                .build();
        UploadEngine uploads = new UploadEngine(new InMemoryObjectClient(ForkJoinPool.commonPool()), settings);
        return new S3FileSystemMetrics(new S3RequestMetrics(), uploads.metrics(), readAhead);
    }
}
