package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.transfer.ClientSettings.HttpClientType;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One configuration, one S3 client per process, whatever the scheme: the {@code s3://} and {@code s3a://}
 * factories configured alike lease the same client of the runtime (one S3 client, one upload engine, one set of
 * MBeans named with the scheme that built it), so every request either scheme sends is counted by that one
 * client, and the client lives while either scheme still holds it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SchemesShareOneClientTest {

    private static final String BUCKET = "schemes-share";
    private static final MBeanServer MBEANS = ManagementFactory.getPlatformMBeanServer();

    @Test
    void s3AndS3aShareOneClientThatCountsTheRequestsOfBoth() throws Exception {
        try (EmbeddedS3Server server = EmbeddedS3Server.builder().bucket(BUCKET).start()) {
            Map<String, String> config = ServerConfigs.forServer(server, HttpClientType.NETTY);
            // A value no other test class uses: the runtime hands equal configurations one client.
            config.put("s3.close.timeout", "57 s");
            S3FileSystemFactory s3 = new S3FileSystemFactory();
            S3FileSystemFactory s3a = new S3AFileSystemFactory();
            s3.configure(Configuration.fromMap(config));
            s3a.configure(Configuration.fromMap(config));
            Set<ObjectName> before = fileSystemBeans();
            try {
                FileSystem viaS3 = s3.create(URI.create("s3://" + BUCKET + "/"));
                FileSystem viaS3a = s3a.create(URI.create("s3a://" + BUCKET + "/"));
                Set<ObjectName> added = fileSystemBeans();
                added.removeAll(before);
                assertThat(added).as("the S3 clients' MBeans").hasSize(1);
                ObjectName bean = added.iterator().next();
                assertThat(bean.getKeyProperty("scheme")).isEqualTo("s3");
                long countedBefore = (Long) MBEANS.getAttribute(bean, "RequestsTotal");
                long receivedBefore = server.requestLog().entries().size();

                byte[] data = "written through s3://, read through s3a://".getBytes(StandardCharsets.UTF_8);
                try (FSDataOutputStream out =
                        viaS3.create(new Path("s3://" + BUCKET + "/file"), FileSystem.WriteMode.OVERWRITE)) {
                    out.write(data);
                }
                assertThat(read(viaS3a, new Path("s3a://" + BUCKET + "/file"), data.length))
                        .isEqualTo(data);

                long received = server.requestLog().entries().size() - receivedBefore;
                assertThat(received)
                        .as("a PUT through s3://, a GET through s3a://")
                        .isGreaterThanOrEqualTo(2);
                assertThat((Long) MBEANS.getAttribute(bean, "RequestsTotal") - countedBefore)
                        .as("requests of both schemes, counted by the one client")
                        .isEqualTo(received);

                s3.close();
                assertThat(read(viaS3a, new Path("s3a://" + BUCKET + "/file"), data.length))
                        .as("read through s3a:// after the s3:// factory let go of the client")
                        .isEqualTo(data);
                assertThat(MBEANS.isRegistered(bean)).isTrue();
            } finally {
                s3.close();
                s3a.close();
            }
            Set<ObjectName> left = fileSystemBeans();
            left.removeAll(before);
            assertThat(left).as("MBeans left after both factories closed").isEmpty();
        }
    }

    private static byte[] read(FileSystem fs, Path path, int length) throws Exception {
        byte[] bytes = new byte[length];
        try (FSDataInputStream in = fs.open(path)) {
            int n = 0;
            while (n < length) {
                int r = in.read(bytes, n, length - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
        }
        return bytes;
    }

    private static Set<ObjectName> fileSystemBeans() throws Exception {
        return new HashSet<>(MBEANS.queryNames(new ObjectName("dev.flinks3:type=S3FileSystem,*"), null));
    }
}
