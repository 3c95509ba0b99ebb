package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flinks3.it.CephRgw;
import dev.flinks3.it.security.CapturedLogs;
import dev.flinks3.testserver.RequestKind;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.ICloseableRegistry;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.PathsCopyingFileSystem;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Where Ceph RGW 16.2 answers differently from S3, each shown on the real gateway ({@link CephRgw}) with
 * a plain SDK client, next to the filesystem with default settings doing the same kind of work without
 * losing or corrupting data:
 *
 * <ul>
 *   <li>CompleteMultipartUpload answers with an empty ETag: multipart files still read back whole (the
 *       filesystem does not rely on that ETag);
 *   <li>{@code If-None-Match: *} on CompleteMultipartUpload is ignored (it overwrites): a multipart
 *       NO_OVERWRITE write onto an existing object fails and keeps it (the filesystem probes once and
 *       checks with a HEAD there, with one warning);
 *   <li>{@code If-Match} on PutObject matches only the unquoted ETag: the filesystem sends If-Match only
 *       on the ranged GETs of bulk downloads, where RGW takes the quoted ETag and refuses a stale one;
 *   <li>{@code partNumber} on GET is ignored (the whole object comes back): the filesystem never sends it.
 * </ul>
 *
 * <p>A {@link FaultInjectingProxy} in front of the gateway (without faults) records what the filesystem sends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class CephServerDifferencesTest {

    private static final int MIB = 1024 * 1024;

    private FaultInjectingProxy proxy;
    private ProxiedFileSystem fileSystem;
    private S3Client s3;
    private String bucket;
    private String prefix;
    private Scenario.Context c;

    @BeforeAll
    void start() {
        bucket = CephRgw.bucket();
        s3 = CephRgw.sdkClient();
        proxy = new FaultInjectingProxy(CephRgw.target().endpoint());
        fileSystem = ProxiedFileSystem.create(
                proxy, CephRgw.flinkConfiguration(), bucket, Map.of("s3.upload.min.part.size", "5mb"));
    }

    @AfterAll
    void stop() throws Exception {
        if (s3 != null) {
            fileSystem.close();
            s3.close();
            proxy.close();
        }
    }

    @org.junit.jupiter.api.BeforeEach
    void freshDirectory() {
        prefix = "CephServerDifferencesTest/" + UUID.randomUUID();
        c = new Scenario.Context(fileSystem.fs(), s3, bucket, new Path("s3://" + bucket + "/" + prefix));
    }

    /** RGW keeps its data in memory: nothing of a test stays. */
    @AfterEach
    void deleteTestData() throws Exception {
        fileSystem.fs().delete(c.dir, true);
    }

    @Test
    void completeMultipartUploadAnswersAnEmptyETagYetMultipartFilesReadBackWhole() throws Exception {
        String key = prefix + "/sdk";
        String uploadId =
                s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
        String first = s3.uploadPart(
                        b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
                        RequestBody.fromBytes(new byte[5 * MIB]))
                .eTag();
        String second = s3.uploadPart(
                        b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(2),
                        RequestBody.fromBytes(new byte[10]))
                .eTag();
        CompleteMultipartUploadResponse completed = s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key(key)
                .uploadId(uploadId)
                .multipartUpload(m -> m.parts(
                        CompletedPart.builder().partNumber(1).eTag(first).build(),
                        CompletedPart.builder().partNumber(2).eTag(second).build())));
        assertThat(completed.eTag())
                .as("ETag in the CompleteMultipartUpload answer")
                .isNullOrEmpty();
        assertThat(s3.headObject(b -> b.bucket(bucket).key(key)).eTag()).endsWith("-2\"");

        Path file = new Path(c.dir, "large");
        c.write(file, Scenario.Payload.LARGE);

        assertThat(fileSystem.fs().getFileStatus(file).getLen()).isEqualTo(Scenario.Payload.LARGE.length);
        c.assertObject(file, Scenario.Payload.LARGE);
        try (var in = fileSystem.fs().open(file)) {
            assertThat(in.readAllBytes()).isEqualTo(Scenario.Payload.LARGE);
        }
    }

    @Test
    void noOverwriteOfAMultipartFileKeepsAnExistingObjectThoughRgwIgnoresTheCondition() throws Exception {
        String key = prefix + "/sdk";
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("old"));
        String uploadId =
                s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
        String part = s3.uploadPart(
                        b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(1), RequestBody.fromString("new"))
                .eTag();
        s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key(key)
                .uploadId(uploadId)
                .ifNoneMatch("*")
                .multipartUpload(m ->
                        m.parts(CompletedPart.builder().partNumber(1).eTag(part).build())));
        assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String())
                .as("RGW completed over the existing object despite If-None-Match: *")
                .isEqualTo("new");

        Path file = new Path(c.dir, "existing");
        byte[] old = Scenario.Payload.SMALL;
        c.write(file, old);
        try (CapturedLogs logs = CapturedLogs.capture("dev.flinks3.multipart")) {
            assertThatThrownBy(() -> {
                        try (FSDataOutputStream out = fileSystem.fs().create(file, WriteMode.NO_OVERWRITE)) {
                            out.write(Scenario.Payload.LARGE);
                        }
                    })
                    .isInstanceOf(FileAlreadyExistsException.class)
                    .hasMessageContaining(c.uri(file));
            assertThat(logs.events())
                    .filteredOn(event -> event.level() == Level.WARN)
                    .singleElement()
                    .satisfies(warning -> assertThat(warning.text()).contains("If-None-Match"));
        }

        c.assertObject(file, old);
        assertThat(s3.listMultipartUploads(b -> b.bucket(bucket).prefix(prefix)).uploads())
                .isEmpty();
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket).prefix(c.key(file))).contents())
                .as("only the existing object, no probe left")
                .hasSize(1);
        Path fresh = new Path(c.dir, "fresh");
        try (FSDataOutputStream out = fileSystem.fs().create(fresh, WriteMode.NO_OVERWRITE)) {
            out.write(Scenario.Payload.LARGE);
        }
        c.assertObject(fresh, Scenario.Payload.LARGE);
    }

    @Test
    void ifMatchOnPutTakesOnlyTheUnquotedETagWhileBulkDownloadsIfMatchOnGetsWorks(@TempDir java.nio.file.Path local)
            throws Exception {
        String key = prefix + "/sdk";
        String quoted = s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("one"))
                .eTag();
        S3Exception refused = catchThrowableOfType(
                S3Exception.class,
                () -> s3.putObject(b -> b.bucket(bucket).key(key).ifMatch(quoted), RequestBody.fromString("two")));
        assertThat(refused.statusCode()).as("PUT If-Match with the quoted ETag").isEqualTo(412);
        assertThat(s3.getObject(b ->
                                b.bucket(bucket).key(key).range("bytes=0-0").ifMatch(quoted))
                        .response()
                        .contentRange())
                .as("GET If-Match with the quoted ETag")
                .isNotNull();
        S3Exception stale = catchThrowableOfType(
                S3Exception.class,
                () -> s3.getObject(b -> b.bucket(bucket).key(key).ifMatch("\"0123456789abcdef0123456789abcdef\"")));
        assertThat(stale.statusCode()).as("GET If-Match with another ETag").isEqualTo(412);

        Path file = new Path(c.dir, "state");
        c.write(file, Scenario.Payload.LARGE);
        int before = proxy.recorded().size();
        java.nio.file.Path copy = local.resolve("state");
        ((PathsCopyingFileSystem) fileSystem.fs())
                .copyFiles(
                        List.of(PathsCopyingFileSystem.CopyRequest.of(
                                file, new Path(copy.toUri()), Scenario.Payload.LARGE.length)),
                        ICloseableRegistry.NO_OP);

        assertThat(Files.readAllBytes(copy)).isEqualTo(Scenario.Payload.LARGE);
        List<ProxiedRequest> gets = proxy
                .recorded()
                .subList(before, proxy.recorded().size())
                .stream()
                .filter(r -> r.kind() == RequestKind.GET_OBJECT)
                .toList();
        // The ranges are s3.bulk-copy.range-size (8 MiB) long: the 11.5 MB payload takes two or more.
        assertThat(gets).as("ranged GETs of the bulk download").hasSizeGreaterThan(1);
        assertThat(gets.subList(1, gets.size()))
                .as("all but the first GET with If-Match")
                .allSatisfy(r -> assertThat(r.header("If-Match")).isPresent());
    }

    @Test
    void partNumberOnGetIsIgnoredAndTheFilesystemNeverSendsIt() throws Exception {
        Path file = new Path(c.dir, "large");
        int before = proxy.recorded().size();
        c.write(file, Scenario.Payload.LARGE);
        String key = c.key(file);
        long whole = s3.getObject(b -> b.bucket(bucket).key(key).partNumber(1))
                .response()
                .contentLength();
        assertThat(whole).as("GET ?partNumber=1 of a three-part object").isEqualTo(Scenario.Payload.LARGE.length);

        try (var in = fileSystem.fs().open(file)) {
            assertThat(in.readAllBytes()).isEqualTo(Scenario.Payload.LARGE);
        }
        fileSystem.fs().getFileStatus(file);

        assertThat(proxy.recorded().subList(before, proxy.recorded().size()))
                .filteredOn(r -> r.kind() == RequestKind.GET_OBJECT || r.kind() == RequestKind.HEAD_OBJECT)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.url()).doesNotContain("partNumber"));
    }
}
