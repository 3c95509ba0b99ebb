package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.flinks3.it.security.CapturedLogs;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * With {@code s3.client: crt}, a stream from {@code create()} that outgrows one part is uploaded by the
 * S3 Transfer Manager on the CRT-based S3 client as a body of unknown length: the Transfer Manager's own
 * listener reports the upload started and complete (the filesystem's MBean counts its callbacks), and the
 * S3 server's request log shows the parts of the client's part size, each with the CRC32C the client
 * computed, and {@code If-None-Match: *} goes with the CompleteMultipartUpload. A stream of one part stays one PutObject. A part that fails at the
 * server (an {@code AccessDenied} answer to UploadPart, injected by the server's fault filter) fails
 * the stream, and nothing is left: no object, no multipart upload. The filesystem's MBean counts the
 * bytes. Where the Transfer Manager cannot keep a promise (no conditional writes), our engine takes the
 * stream, with one warning.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CrtTransferManagerUploadTest extends AbstractS3ProxyFileSystemTest {

    private static final MBeanServer MBEANS = ManagementFactory.getPlatformMBeanServer();
    private static final long PART = 5L * MIB;

    private ObjectName fileSystemBean;

    @Override
    protected Map<String, String> options() {
        // s3.close.timeout at a value no other test class uses: the process-wide runtime hands equal
        // configurations one client, and this class reads the counters of a client of its own.
        return Map.of("s3.client", "crt", "s3.upload.min.part.size", "5mb", "s3.close.timeout", "59 s");
    }

    /** Also finds this filesystem's MBean, and lets the server echo a CRC32C once (a small PutObject). */
    @Override
    @BeforeAll
    void createFileSystem() throws Exception {
        Set<ObjectName> before = fileSystemBeans();
        super.createFileSystem();
        Set<ObjectName> added = fileSystemBeans();
        added.removeAll(before);
        assertThat(added).hasSize(1);
        fileSystemBean = added.iterator().next();
        write(
                new Path("s3://" + target.bucket() + "/" + getClass().getSimpleName() + "/first-small-file"),
                "checked".getBytes(StandardCharsets.UTF_8));
    }

    @AfterEach
    void clearFaults() {
        server.clearFaults();
    }

    @Test
    void aStreamLargerThanOnePartGoesUpAsTheCrtClientsMultipartUpload() throws Exception {
        Path path = new Path(dir, "large");
        byte[] data = randomBytes(12 * MIB + 123, 1);
        long bytesBefore = metric("UploadedBytesTotal");
        long completedBefore = metric("MultipartUploadsCompletedTotal");
        long transferManagerStartedBefore = metric("TransferManagerUploadsStartedTotal");
        long transferManagerCompletedBefore = metric("TransferManagerUploadsCompletedTotal");

        writeInSmallWrites(path, data, WriteMode.OVERWRITE);

        List<RequestRecord> requests = requestsFor(path);
        assertThat(requests)
                .extracting(RequestRecord::kind)
                .as("requests %s", requests)
                .doesNotContain(RequestKind.PUT_OBJECT);
        assertThat(requests)
                .filteredOn(r -> r.kind() == RequestKind.CREATE_MULTIPART_UPLOAD)
                .hasSize(1);
        assertThat(requests)
                .filteredOn(r -> r.kind() == RequestKind.COMPLETE_MULTIPART_UPLOAD)
                .hasSize(1);
        List<RequestRecord> parts = requests.stream()
                .filter(r -> r.kind() == RequestKind.UPLOAD_PART)
                .toList();
        assertThat(parts)
                .as("parts of the client's part size, the last one the rest: %s", parts)
                .extracting(CrtTransferManagerUploadTest::bodyBytes)
                .containsExactlyInAnyOrder(PART, PART, 2L * MIB + 123);
        assertThat(parts)
                .as("each part with the CRC32C the client computed, which the server checks")
                .allSatisfy(
                        part -> assertThat(carriesCrc32c(part)).as("%s", part).isTrue());
        assertThat(metric("TransferManagerUploadsStartedTotal") - transferManagerStartedBefore)
                .as("the Transfer Manager's own listener saw the upload start")
                .isEqualTo(1);
        // the listener's transferComplete is not ordered before the completion future close() waits for: it
        // may come a moment after close() returned (a clean-clone run saw 0 here)
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(
                                metric("TransferManagerUploadsCompletedTotal") - transferManagerCompletedBefore)
                        .as("and complete")
                        .isEqualTo(1));
        assertThat(objectBytes(path)).isEqualTo(data);
        assertThat(metric("UploadedBytesTotal") - bytesBefore).isEqualTo(data.length);
        assertThat(metric("MultipartUploadsCompletedTotal") - completedBefore).isEqualTo(1);
        // The budget is the process's: nothing of it is held, by this stream or an earlier test's.
        assertThat(metric("BufferedBytes")).as("budget given back").isZero();
    }

    @Test
    void aStreamOfOnePartIsOnePutObject() throws Exception {
        Path path = new Path(dir, "one-part");
        byte[] data = randomBytes((int) PART, 2);
        long transferManagerStartedBefore = metric("TransferManagerUploadsStartedTotal");

        writeInSmallWrites(path, data, WriteMode.NO_OVERWRITE);

        assertThat(requestsFor(path)).extracting(RequestRecord::kind).containsExactly(RequestKind.PUT_OBJECT);
        assertThat(metric("TransferManagerUploadsStartedTotal"))
                .as("one PutObject of our engine, not the Transfer Manager's")
                .isEqualTo(transferManagerStartedBefore);
        assertThat(objectBytes(path)).isEqualTo(data);
    }

    /**
     * A key XML 1.0 cannot carry: S3 names the key in the XML answers of a multipart upload, so neither the
     * Transfer Manager nor our engine starts one; the stream fails naming the character, and nothing is sent.
     */
    @Test
    void aStreamLargerThanOnePartToAKeyXmlCannotCarryFailsBeforeAnyUpload() throws Exception {
        Path path = new Path(dir, "bell\u0007key");
        byte[] data = randomBytes((int) (2 * PART), 7);
        long transferManagerStartedBefore = metric("TransferManagerUploadsStartedTotal");

        Throwable failure = catchThrowable(() -> writeInSmallWrites(path, data, WriteMode.OVERWRITE));

        assertThat(failure).isInstanceOf(IOException.class).hasStackTraceContaining("U+0007");
        assertThat(requestsFor(path))
                .extracting(RequestRecord::kind)
                .doesNotContain(RequestKind.CREATE_MULTIPART_UPLOAD, RequestKind.UPLOAD_PART, RequestKind.PUT_OBJECT);
        assertThat(metric("TransferManagerUploadsStartedTotal")).isEqualTo(transferManagerStartedBefore);
        assertThat(metric("BufferedBytes")).as("budget given back").isZero();
    }

    @Test
    void aFailedPartFailsTheStreamAndLeavesNoObjectAndNoUpload() throws Exception {
        Path path = new Path(dir, "failed-part");
        // More than the client takes ahead of the writer (its queue and the parts it reads ahead), so
        // the writer is blocked when the part fails.
        byte[] data = randomBytes(64 * MIB, 3);
        long abortedBefore = metric("MultipartUploadsAbortedTotal");
        server.failNext(RequestKind.UPLOAD_PART, 1, 403, "AccessDenied");

        FSDataOutputStream out = fs.create(path, WriteMode.NO_OVERWRITE);
        Throwable failure = catchThrowable(() -> {
            for (int offset = 0; offset < data.length; offset += 64 * 1024) {
                out.write(data, offset, 64 * 1024);
            }
            out.close();
        });
        assertThat(failure).isInstanceOf(IOException.class).hasMessageContaining("AccessDenied");
        catchThrowable(out::close);

        assertThat(requestsFor(path))
                .extracting(RequestRecord::kind)
                .contains(RequestKind.ABORT_MULTIPART_UPLOAD)
                .doesNotContain(RequestKind.COMPLETE_MULTIPART_UPLOAD);
        assertNothingLeftAt(path);
        assertThat(metric("MultipartUploadsAbortedTotal") - abortedBefore).isEqualTo(1);
        // The budget is the process's: nothing of it is held, by this stream or an earlier test's.
        assertThat(metric("BufferedBytes")).as("budget given back").isZero();
    }

    @Test
    void noOverwriteOntoAnExistingKeyIsRefusedByTheCompletionAndLeavesNoUpload() throws Exception {
        Path path = new Path(dir, "existing");
        byte[] original = "original".getBytes(StandardCharsets.UTF_8);
        s3.putObject(b -> b.bucket(target.bucket()).key(key(path)), RequestBody.fromBytes(original));
        long transferManagerStartedBefore = metric("TransferManagerUploadsStartedTotal");
        long transferManagerCompletedBefore = metric("TransferManagerUploadsCompletedTotal");

        Throwable failure =
                catchThrowable(() -> writeInSmallWrites(path, randomBytes(11 * MIB, 4), WriteMode.NO_OVERWRITE));

        assertThat(failure).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(objectBytes(path)).isEqualTo(original);
        assertThat(s3.listMultipartUploads(b -> b.bucket(target.bucket()).prefix(key(dir)))
                        .uploads())
                .isEmpty();
        List<RequestRecord> requests = requestsFor(path);
        assertThat(requests)
                .filteredOn(r -> r.kind() == RequestKind.COMPLETE_MULTIPART_UPLOAD)
                .isNotEmpty()
                .allSatisfy(
                        complete -> assertThat(complete.header("If-None-Match")).hasValue("*"));
        assertThat(requests)
                .filteredOn(r -> r.kind() == RequestKind.UPLOAD_PART)
                .isNotEmpty();
        assertThat(metric("TransferManagerUploadsStartedTotal") - transferManagerStartedBefore)
                .as("the Transfer Manager's own listener saw the upload start")
                .isEqualTo(1);
        assertThat(metric("TransferManagerUploadsCompletedTotal"))
                .as("and never complete")
                .isEqualTo(transferManagerCompletedBefore);
    }

    @Test
    void withoutConditionalWritesOurEngineUploadsNoOverwriteStreamsAndOneWarningSaysSo() throws Exception {
        Set<ObjectName> beansBefore = fileSystemBeans();
        FileSystem engineFs = FlinkS3FileSystems.create(
                "s3",
                target.bucket(),
                target.flinkConfiguration(Map.of(
                        "s3.client",
                        "crt",
                        "s3.upload.min.part.size",
                        "5mb",
                        "s3.conditional-writes.enabled",
                        "false")));
        Set<ObjectName> engineBeans = fileSystemBeans();
        engineBeans.removeAll(beansBefore);
        assertThat(engineBeans).hasSize(1);
        ObjectName engineBean = engineBeans.iterator().next();
        try (CapturedLogs logs = CapturedLogs.capture("dev.flinks3.multipart.crt")) {
            write(engineFs, new Path(dir, "small"), "checked".getBytes(StandardCharsets.UTF_8));
            Path first = new Path(dir, "first");
            Path second = new Path(dir, "second");
            byte[] data = randomBytes(11 * MIB, 5);

            write(engineFs, first, data);
            write(engineFs, second, data);

            for (Path path : List.of(first, second)) {
                List<RequestRecord> requests = requestsFor(path);
                assertThat(requests)
                        .filteredOn(r -> r.kind() == RequestKind.UPLOAD_PART)
                        .as("our engine's parts, each with the CRC32C it computed")
                        .hasSize(3)
                        .allSatisfy(part ->
                                assertThat(part.header("x-amz-checksum-crc32c")).isPresent());
                assertThat(objectBytes(path)).isEqualTo(data);
            }
            assertThat(metric(engineBean, "TransferManagerUploadsStartedTotal"))
                    .as("the Transfer Manager started none of the streams")
                    .isZero();
            assertThat(metric(engineBean, "MultipartUploadsCompletedTotal"))
                    .as("our engine completed both")
                    .isEqualTo(2);
            assertThat(logs.events())
                    .filteredOn(e -> e.text().contains("If-None-Match"))
                    .hasSize(1);
        } finally {
            FlinkS3FileSystems.close(engineFs);
        }
    }

    /** The part's bytes: its decoded length for an aws-chunked body, else its Content-Length. */
    private static long bodyBytes(RequestRecord part) {
        return Long.parseLong(part.header("x-amz-decoded-content-length")
                .orElseGet(() -> part.header("content-length").orElse("-1")));
    }

    private static boolean carriesCrc32c(RequestRecord part) {
        return part.header("x-amz-checksum-crc32c").isPresent()
                || "x-amz-checksum-crc32c"
                        .equalsIgnoreCase(part.header("x-amz-trailer").orElse(""));
    }

    private void writeInSmallWrites(Path path, byte[] data, WriteMode mode) throws IOException {
        try (FSDataOutputStream out = fs.create(path, mode)) {
            for (int offset = 0; offset < data.length; offset += 4096) {
                out.write(data, offset, Math.min(4096, data.length - offset));
            }
        }
    }

    private static void write(FileSystem fileSystem, Path path, byte[] data) throws IOException {
        try (FSDataOutputStream out = fileSystem.create(path, WriteMode.NO_OVERWRITE)) {
            out.write(data);
        }
    }

    private List<RequestRecord> requestsFor(Path path) {
        String key = key(path);
        return server.requestLog().entries().stream()
                .filter(r -> r.key().equals(key))
                .collect(Collectors.toList());
    }

    private long metric(String attribute) throws Exception {
        return metric(fileSystemBean, attribute);
    }

    private static long metric(ObjectName bean, String attribute) throws Exception {
        return ((Number) MBEANS.getAttribute(bean, attribute)).longValue();
    }

    private static Set<ObjectName> fileSystemBeans() throws Exception {
        return new HashSet<>(MBEANS.queryNames(new ObjectName("dev.flinks3:type=S3FileSystem,scheme=s3,*"), null));
    }
}
