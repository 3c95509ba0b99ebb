package dev.flinks3.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.it.faults.Fault;
import dev.flinks3.it.faults.FaultInjectingProxy;
import dev.flinks3.it.security.CapturedLogs;
import dev.flinks3.testserver.RequestKind;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 14: what the plugin does is visible to an operator. A workload on the real S3 server (S3Proxy
 * behind a fault proxy that throttles some parts with 503 SlowDown) moves the platform MBeans of the
 * filesystem while it runs, as {@code jconsole} or the Prometheus JMX exporter would read them: by name
 * through the platform MBean server, attributes as plain numbers. Closing the filesystem's resources (a
 * new configuration) unregisters them; {@code s3://} and {@code s3a://} never share a name; the summary
 * line comes every {@code s3.metrics.log-interval} and at close, or never with 0.
 */
@Timeout(180)
class MetricsMBeansTest {

    private static final int MIB = 1024 * 1024;
    private static final MBeanServer MBEANS = ManagementFactory.getPlatformMBeanServer();

    @Test
    void theMBeansMoveWhileAWorkloadRunsAndGoAwayWhenTheFileSystemIsClosed() throws Exception {
        try (FaultInjectingProxy proxy =
                new FaultInjectingProxy(SharedS3ProxyTarget.server().endpoint())) {
            Configuration config = configuration(
                    proxy, Map.of("s3.upload.min.part.size", "5mb", "s3.upload.max.concurrent.uploads", "2"));
            FileSystemFactory s3 = factory("s3", config);
            FileSystemFactory s3a = factory("s3a", config);
            FileSystem fs = s3.create(URI.create("s3://" + SharedS3ProxyTarget.bucket() + "/"));
            ObjectName name = fileSystemBean("s3", proxy);
            ObjectName uploadPart = operationBean("s3", proxy, "UploadPart");
            ObjectName getObject = operationBean("s3", proxy, "GetObject");
            assertThat(MBEANS.isRegistered(name)).as("%s registered", name).isTrue();

            Path file = new Path("s3://" + SharedS3ProxyTarget.bucket() + "/MetricsMBeansTest/" + UUID.randomUUID());
            byte[] data = new byte[40 * MIB];
            new Random(14).nextBytes(data);
            proxy.failNext(RequestKind.UPLOAD_PART, 2, Fault.slowDown());
            CountDownLatch halfWritten = new CountDownLatch(1);
            CountDownLatch goOn = new CountDownLatch(1);
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> write(fs, file, data, halfWritten, goOn));

            // Halfway, the stream open: parts went up, the upload is started and not yet completed.
            assertThat(halfWritten.await(60, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(60)).until(() -> longOf(name, "UploadedBytesTotal") >= 15L * MIB);
            assertThat(longOf(name, "MultipartUploadsStartedTotal")).isEqualTo(1);
            assertThat(longOf(name, "MultipartUploadsCompletedTotal")).isZero();
            assertThat(longOf(name, "PeakBufferedBytes")).isGreaterThanOrEqualTo(5L * MIB);
            assertThat(longOf(name, "RequestsTotal")).isPositive();
            goOn.countDown();
            writer.get(120, TimeUnit.SECONDS);

            assertThat(longOf(name, "UploadedBytesTotal")).isEqualTo(data.length);
            assertThat(longOf(name, "MultipartUploadsCompletedTotal")).isEqualTo(1);
            assertThat(longOf(name, "MultipartUploadsAbortedTotal")).isZero();
            assertThat(longOf(name, "PartsInFlight")).isZero();
            assertThat(longOf(name, "BufferedBytes"))
                    .as("the stream gave its part buffers back, and the process's budget holds nothing else")
                    .isZero();
            assertThat(longOf(name, "ThrottledAttemptsTotal"))
                    .as("the two 503 SlowDown answers")
                    .isEqualTo(2);
            assertThat(longOf(name, "RetriesTotal")).isGreaterThanOrEqualTo(2);
            assertThat(longOf(uploadPart, "ThrottledAttemptsTotal")).isEqualTo(2);
            assertThat(longOf(uploadPart, "RequestsTotal"))
                    .as("the file's 8 parts and the one part of the If-None-Match probe of completions")
                    .isEqualTo(9);
            assertThat(longOf(uploadPart, "LatencySecondsLe_+Inf"))
                    .as("every part's latency in the histogram")
                    .isEqualTo(9);
            assertThat(longOf(uploadPart, "LatencySecondsLe_0.25"))
                    .as("the two throttled parts waited their backoff (at least 500 ms) and are not in le=0.25")
                    .isLessThanOrEqualTo(7);
            assertThat((Double) MBEANS.getAttribute(uploadPart, "LatencySecondsTotal"))
                    .isGreaterThanOrEqualTo(1.0);

            byte[] read = new byte[data.length];
            try (InputStream in = fs.open(file)) {
                int n = 0;
                for (int r; n < read.length && (r = in.read(read, n, read.length - n)) > 0; ) {
                    n += r;
                }
            }
            assertThat(Arrays.equals(read, data)).isTrue();
            assertThat(longOf(name, "DownloadedBytesTotal")).isGreaterThanOrEqualTo(data.length);
            assertThat(longOf(getObject, "RequestsTotal")).isPositive();
            assertThat(longOf(name, "PeakReadAheadBytes"))
                    .as("the sequential read took read-ahead windows")
                    .isPositive();
            assertThat(longOf(name, "ReadAheadBytes"))
                    .as("and gave them back at close")
                    .isZero();

            s3a.create(URI.create("s3a://" + SharedS3ProxyTarget.bucket() + "/"));
            assertThat(MBEANS.queryNames(
                            new ObjectName(
                                    "dev.flinks3:type=S3FileSystem,scheme=s3a,endpoint=" + endpointKey(proxy) + ",*"),
                            null))
                    .as("s3a:// of the same configuration shares the client of s3://, and its MBeans")
                    .isEmpty();

            s3.configure(config);
            s3a.configure(config);

            assertThat(MBEANS.queryNames(new ObjectName("dev.flinks3:endpoint=" + endpointKey(proxy) + ",*"), null))
                    .as("every MBean of both schemes unregistered")
                    .isEmpty();
        }
    }

    @Test
    void theSummaryLineComesEveryIntervalAndAtCloseAndNeverWithZero() throws Exception {
        try (FaultInjectingProxy proxy =
                        new FaultInjectingProxy(SharedS3ProxyTarget.server().endpoint());
                CapturedLogs logs = CapturedLogs.capture("dev.flinks3.fs.metrics")) {
            Configuration often = configuration(proxy, Map.of("s3.metrics.log-interval", "100 ms"));
            FileSystemFactory s3 = factory("s3", often);
            FileSystem fs = s3.create(URI.create("s3://" + SharedS3ProxyTarget.bucket() + "/"));
            write(
                    fs,
                    new Path("s3://" + SharedS3ProxyTarget.bucket() + "/MetricsMBeansTest/" + UUID.randomUUID()),
                    new byte[1000],
                    new CountDownLatch(1),
                    new CountDownLatch(0));
            String prefix = "flinks3 metrics of s3:// on " + endpointKey(proxy);

            // Lines keep coming, and a line after the PutObject counts it.
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> summaryLines(logs, prefix + ": ").stream()
                            // the PutObject, and the If-None-Match probe of the first conditional write, whose
                            // conditional PutObject onto its own object is refused (412): the one failed request
                            .anyMatch(line ->
                                    line.matches(".*: [1-9][0-9]* requests \\(1 failed\\), 0 retries, 0 throttled.*")));
            int periodic = summaryLines(logs, prefix + ": ").size();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> summaryLines(logs, prefix + ": ").size() > periodic);

            Configuration off = configuration(proxy, Map.of("s3.metrics.log-interval", "0"));
            s3.configure(off);
            assertThat(summaryLines(logs, prefix + " at close: ")).hasSize(1);
            s3.create(URI.create("s3://" + SharedS3ProxyTarget.bucket() + "/"))
                    .exists(new Path("s3://" + SharedS3ProxyTarget.bucket() + "/MetricsMBeansTest/none"));
            int lines = logs.events().size();
            s3.configure(off);

            assertThat(logs.events())
                    .as("nothing logged with an interval of 0, not even at close")
                    .hasSize(lines);
        }
    }

    private static List<String> summaryLines(CapturedLogs logs, String start) {
        return logs.events().stream()
                .map(CapturedLogs.Event::text)
                .map(text -> text.substring(text.indexOf(" - ") + 3))
                .filter(text -> text.startsWith(start))
                .toList();
    }

    private static void write(FileSystem fs, Path file, byte[] data, CountDownLatch halfWritten, CountDownLatch goOn) {
        try (FSDataOutputStream out = fs.create(file, WriteMode.NO_OVERWRITE)) {
            int half = data.length / 2;
            out.write(data, 0, half);
            halfWritten.countDown();
            if (!goOn.await(120, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never let the writer go on");
            }
            out.write(data, half, data.length - half);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Configuration configuration(FaultInjectingProxy proxy, Map<String, String> options) {
        Configuration config = SharedS3ProxyTarget.flinkConfiguration();
        config.setString("s3.endpoint", proxy.endpoint().toString());
        options.forEach(config::setString);
        return config;
    }

    /** The factory Flink would find for {@code scheme}, configured. */
    private static FileSystemFactory factory(String scheme, Configuration config) {
        for (FileSystemFactory factory : ServiceLoader.load(FileSystemFactory.class)) {
            if (factory.getScheme().equals(scheme)) {
                factory.configure(config);
                return factory;
            }
        }
        throw new AssertionError("no factory for " + scheme);
    }

    private static String endpointKey(FaultInjectingProxy proxy) {
        return proxy.endpoint().getHost() + "_" + proxy.endpoint().getPort();
    }

    private static ObjectName fileSystemBean(String scheme, FaultInjectingProxy proxy) throws Exception {
        return new ObjectName("dev.flinks3:type=S3FileSystem,scheme=" + scheme + ",endpoint=" + endpointKey(proxy));
    }

    private static ObjectName operationBean(String scheme, FaultInjectingProxy proxy, String operation)
            throws Exception {
        return new ObjectName("dev.flinks3:type=S3Operation,scheme=" + scheme + ",endpoint=" + endpointKey(proxy)
                + ",operation=" + operation);
    }

    private static long longOf(ObjectName name, String attribute) throws Exception {
        return ((Number) MBEANS.getAttribute(name, attribute)).longValue();
    }
}
