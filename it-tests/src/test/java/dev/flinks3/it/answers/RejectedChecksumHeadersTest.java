package dev.flinks3.it.answers;

import static dev.flinks3.it.answers.RewrittenAnswersServer.randomBytes;
import static dev.flinks3.it.answers.RewrittenAnswersServer.read;
import static dev.flinks3.it.answers.RewrittenAnswersServer.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.core.fs.ByteBufferReadable;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 23, a store that rejects every {@code x-amz-checksum-*} header (Backblaze B2 answers 400
 * {@code InvalidArgument} "Unsupported header ... received for this API call" to CreateMultipartUpload,
 * PutObject, UploadPart and GetObject alike): S3Proxy's answer to each request with such a header is that
 * refusal. With the defaults, a multipart file, a one-part file, a sequential read and a positional read
 * all work: the refused CreateMultipartUpload and the refused GET are each sent again at once without the
 * header, every later request goes without it, and every upload carries {@code Content-MD5}. With
 * {@code s3.checksum-validation.enabled: false} no such header is sent at all, and uploads still carry
 * {@code Content-MD5}.
 *
 * <p>And a store that refuses uploads without {@code Content-MD5} although they carry a CRC32C it checks
 * (an Object Lock bucket on IONOS and older appliances): the refused upload is sent again at once with
 * {@code Content-MD5} added, every later upload carries both, and the CRC32C mode is kept.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RejectedChecksumHeadersTest {

    private static final int MIB = 1024 * 1024;

    private RewrittenAnswersServer server;
    private final String base = "RejectedChecksumHeadersTest/" + UUID.randomUUID();

    @BeforeAll
    void start() {
        server = new RewrittenAnswersServer(true);
    }

    @AfterEach
    void clearRules() {
        server.answers().clear();
        server.server().requestLog().clear();
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
    }

    private Path path(String relative) {
        return new Path("s3://" + RewrittenAnswersServer.BUCKET + "/" + base + "/" + relative);
    }

    /** Refuses every request of the upload and read kinds that carries an x-amz-checksum-* header, as B2 does. */
    private void refuseChecksumHeaders() {
        server.answers().refuseChecksumHeaders();
    }

    @Test
    void withTheDefaultsEachRefusedHeaderIsDroppedOnceAndEveryFileIsWrittenAndReadByteExact() throws Exception {
        refuseChecksumHeaders();
        FileSystemFactory factory = server.factory(Map.of("s3.upload.min.part.size", "5mb"));
        try {
            FileSystem fs = RewrittenAnswersServer.fileSystem(factory);
            byte[] large = writeLargeAndSmallAndReadThemBack(fs, "defaults", 1);
            try (FSDataInputStream in = fs.open(path("defaults/large"))) {
                ByteBuffer at = ByteBuffer.allocate(4096);
                while (at.hasRemaining()) {
                    ((ByteBufferReadable) in).read(6 * MIB + at.position(), at);
                }
                assertThat(at.array()).isEqualTo(Arrays.copyOfRange(large, 6 * MIB, 6 * MIB + 4096));
            }

            assertThat(withChecksumHeader(RequestKind.CREATE_MULTIPART_UPLOAD))
                    .as("CreateMultipartUploads with x-amz-checksum-*")
                    .isEqualTo(1);
            // The first GET's header is refused twice: sent directly, then through the SDK, which drops it.
            assertThat(withChecksumHeader(RequestKind.GET_OBJECT))
                    .as("GETs with x-amz-checksum-*")
                    .isEqualTo(2);
            assertThat(withChecksumHeader(RequestKind.UPLOAD_PART) + withChecksumHeader(RequestKind.PUT_OBJECT))
                    .as("upload bodies with x-amz-checksum-*")
                    .isZero();
            assertEveryUploadCarriesContentMd5();
        } finally {
            RewrittenAnswersServer.close(factory);
        }
    }

    @Test
    void withChecksumsOffNoChecksumHeaderIsSentAndUploadsKeepContentMd5() throws Exception {
        refuseChecksumHeaders();
        FileSystemFactory factory =
                server.factory(Map.of("s3.upload.min.part.size", "5mb", "s3.checksum-validation.enabled", "false"));
        try {
            writeLargeAndSmallAndReadThemBack(RewrittenAnswersServer.fileSystem(factory), "off", 3);
            for (RequestKind kind : List.of(
                    RequestKind.CREATE_MULTIPART_UPLOAD,
                    RequestKind.PUT_OBJECT,
                    RequestKind.UPLOAD_PART,
                    RequestKind.GET_OBJECT)) {
                assertThat(withChecksumHeader(kind))
                        .as("%s with x-amz-checksum-*", kind)
                        .isZero();
            }
            assertEveryUploadCarriesContentMd5();
        } finally {
            RewrittenAnswersServer.close(factory);
        }
    }

    @Test
    void uploadsRefusedWithoutContentMd5AreSentAgainWithItAndLaterOnesCarryItBesideTheCrc32c() throws Exception {
        AnswerRewriteFilter.Rule objectLock = null;
        FileSystemFactory factory = server.factory(Map.of("s3.upload.min.part.size", "5mb"));
        try {
            FileSystem fs = RewrittenAnswersServer.fileSystem(factory);
            byte[] first = randomBytes(200_000, 5);
            // Probing: the first upload carries CRC32C and Content-MD5; S3Proxy echoes the CRC32C.
            write(fs, path("lock/first"), first, WriteMode.NO_OVERWRITE);
            for (RequestKind kind : List.of(RequestKind.PUT_OBJECT, RequestKind.UPLOAD_PART)) {
                AnswerRewriteFilter.Rule rule = server.answers()
                        .refuse(
                                kind,
                                request -> request.getHeader("Content-MD5") == null,
                                AnswerRewriteFilter.ALWAYS,
                                400,
                                "InvalidRequest",
                                "Missing required header for this request: Content-MD5");
                if (objectLock == null) {
                    objectLock = rule;
                }
            }
            server.server().requestLog().clear();
            byte[] second = randomBytes(300_000, 6);
            byte[] large = randomBytes(11 * MIB + 7, 7);
            write(fs, path("lock/second"), second, WriteMode.NO_OVERWRITE);
            write(fs, path("lock/large"), large, WriteMode.NO_OVERWRITE);

            assertThat(read(fs, path("lock/first"))).isEqualTo(first);
            assertThat(read(fs, path("lock/second"))).isEqualTo(second);
            assertThat(read(fs, path("lock/large"))).isEqualTo(large);
            assertThat(objectLock.applied())
                    .as("PutObjects refused without Content-MD5")
                    .isEqualTo(1);
            List<RequestRecord> accepted = server.server().requestLog().entries().stream()
                    .filter(r -> r.kind() == RequestKind.PUT_OBJECT || r.kind() == RequestKind.UPLOAD_PART)
                    .filter(r -> r.key().startsWith(base))
                    .filter(r -> r.header("Content-MD5").isPresent())
                    .collect(Collectors.toList());
            assertThat(accepted).hasSizeGreaterThanOrEqualTo(4);
            assertThat(accepted)
                    .as("uploads carry the CRC32C beside Content-MD5")
                    .allSatisfy(
                            r -> assertThat(r.header("x-amz-checksum-crc32c")).isPresent());
        } finally {
            RewrittenAnswersServer.close(factory);
        }
    }

    /**
     * Writes a multipart file {@code dir/large} and a one-part file {@code dir/small} with no overwrite,
     * reads both back byte-exact; returns the large file's bytes.
     */
    private byte[] writeLargeAndSmallAndReadThemBack(FileSystem fs, String dir, long seed) throws Exception {
        byte[] large = randomBytes(11 * MIB + 7, seed);
        byte[] small = randomBytes(300_000, seed + 1);
        write(fs, path(dir + "/large"), large, WriteMode.NO_OVERWRITE);
        write(fs, path(dir + "/small"), small, WriteMode.NO_OVERWRITE);
        assertThat(read(fs, path(dir + "/large"))).isEqualTo(large);
        assertThat(read(fs, path(dir + "/small"))).isEqualTo(small);
        return large;
    }

    private long withChecksumHeader(RequestKind kind) {
        return server.server().requestLog().entries(kind).stream()
                .filter(r -> r.key().startsWith(base))
                .filter(r -> r.headers().keySet().stream().anyMatch(name -> name.startsWith("x-amz-checksum")))
                .count();
    }

    private void assertEveryUploadCarriesContentMd5() {
        List<RequestRecord> uploads = server.server().requestLog().entries().stream()
                .filter(r -> r.kind() == RequestKind.PUT_OBJECT || r.kind() == RequestKind.UPLOAD_PART)
                .filter(r -> r.key().startsWith(base))
                .collect(Collectors.toList());
        assertThat(uploads).hasSizeGreaterThanOrEqualTo(4);
        assertThat(uploads)
                .as("uploads without Content-MD5")
                .allSatisfy(r -> assertThat(r.header("Content-MD5")).isPresent());
    }
}
