package dev.flinks3.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.it.FlinkS3FileSystems;
import dev.flinks3.it.S3TestTarget;
import dev.flinks3.it.SharedS3Proxy;
import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A FileSink's in-progress file resumed after the checksum settings changed (or the plugin was upgraded) keeps
 * sending parts with the checksum its upload was created with. The server here answers as AWS does: an upload
 * created with {@code x-amz-checksum-algorithm: CRC32C} refuses a part without {@code x-amz-checksum-crc32c},
 * one created without an algorithm refuses a part that carries one, each with 400 InvalidRequest "Checksum Type
 * mismatch occurred"; S3Proxy itself checks neither.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ResumedUploadChecksumTest {

    private static final String BUCKET = SharedS3Proxy.BUCKET;
    private static final int PART = 5 * 1024 * 1024;
    private static final Pattern UPLOAD_ID = Pattern.compile("<UploadId>([^<]+)</UploadId>");
    private static final String NONE = "";

    /** The algorithm each upload was created with, by upload id ({@link #NONE} for none). */
    private static final Map<String, String> ALGORITHMS = new ConcurrentHashMap<>();

    private static EmbeddedS3Server server;
    private static S3TestTarget target;
    private static AnswerRewriteFilter.Rule partWithoutItsChecksum;
    private static AnswerRewriteFilter.Rule partWithAChecksumOfNone;

    @BeforeAll
    static void startServer() {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
        target = new S3TestTarget(
                "S3Proxy checking checksum types",
                server.endpoint(),
                server.accessKey(),
                server.secretKey(),
                server.region(),
                BUCKET);
        AnswerRewriteFilter answers = server.answers();
        answers.rewrite(
                RequestKind.CREATE_MULTIPART_UPLOAD, request -> true, AnswerRewriteFilter.ALWAYS, (request, served) -> {
                    Matcher id = UPLOAD_ID.matcher(served.text());
                    if (id.find()) {
                        String algorithm = request.getHeader("x-amz-checksum-algorithm");
                        ALGORITHMS.put(id.group(1), algorithm == null ? NONE : algorithm.toLowerCase());
                    }
                    return served;
                });
        partWithoutItsChecksum = answers.refuse(
                RequestKind.UPLOAD_PART,
                request -> "crc32c".equals(algorithm(request)) && request.getHeader("x-amz-checksum-crc32c") == null,
                AnswerRewriteFilter.ALWAYS,
                400,
                "InvalidRequest",
                "Checksum Type mismatch occurred, expected checksum Type: crc32c, actual checksum Type: null");
        partWithAChecksumOfNone = answers.refuse(
                RequestKind.UPLOAD_PART,
                request -> NONE.equals(algorithm(request)) && request.getHeader("x-amz-checksum-crc32c") != null,
                AnswerRewriteFilter.ALWAYS,
                400,
                "InvalidRequest",
                "Checksum Type mismatch occurred, expected checksum Type: null, actual checksum Type: crc32c");
    }

    @AfterAll
    static void clearRules() {
        server.answers().clear();
    }

    /** Checksums were on when the upload began, off when the job restored. */
    @Test
    void anUploadCreatedWithCrc32cIsResumedWithCrc32cAfterChecksumsWereSwitchedOff() throws Exception {
        resumeAcrossSettings("created-crc32c", Map.of(), Map.of("s3.checksum-validation.enabled", "false"));
        assertThat(partWithoutItsChecksum.applied()).isZero();
    }

    /** Checksums were off when the upload began (as for another plugin's uploads), on when the job restored. */
    @Test
    void anUploadCreatedWithoutChecksumIsResumedWithoutAfterChecksumsWereSwitchedOn() throws Exception {
        resumeAcrossSettings("created-none", Map.of("s3.checksum-validation.enabled", "false"), Map.of());
        assertThat(partWithAChecksumOfNone.applied()).isZero();
    }

    private static void resumeAcrossSettings(String name, Map<String, String> before, Map<String, String> after)
            throws Exception {
        Path path = new Path("s3://" + BUCKET + "/checksum-mode/" + name + "/part-0-0");
        byte[] first = random(PART + 100, 1);
        byte[] second = random(PART + 7, 2);
        byte[] state;
        int version;
        FileSystemFactory writing = FlinkS3FileSystems.factory("s3", target.flinkConfiguration(before));
        try {
            RecoverableWriter writer = fileSystem(writing).createRecoverableWriter();
            RecoverableFsDataOutputStream out = writer.open(path);
            out.write(first);
            SimpleVersionedSerializer<RecoverableWriter.ResumeRecoverable> serializer =
                    writer.getResumeRecoverableSerializer();
            state = serializer.serialize(out.persist());
            version = serializer.getVersion();
        } finally {
            FlinkS3FileSystems.closeClients(writing);
        }

        FileSystemFactory restoring = FlinkS3FileSystems.factory("s3", target.flinkConfiguration(after));
        try {
            FileSystem fs = fileSystem(restoring);
            RecoverableWriter writer = fs.createRecoverableWriter();
            RecoverableFsDataOutputStream out =
                    writer.recover(writer.getResumeRecoverableSerializer().deserialize(version, state));
            out.write(second);
            out.closeForCommit().commit();

            ByteArrayOutputStream read = new ByteArrayOutputStream();
            try (InputStream in = fs.open(path)) {
                in.transferTo(read);
            }
            byte[] expected = new byte[first.length + second.length];
            System.arraycopy(first, 0, expected, 0, first.length);
            System.arraycopy(second, 0, expected, first.length, second.length);
            assertThat(read.toByteArray()).isEqualTo(expected);
        } finally {
            FlinkS3FileSystems.closeClients(restoring);
        }
    }

    private static String algorithm(HttpServletRequest request) {
        String uploadId = request.getParameter("uploadId");
        return uploadId == null ? null : ALGORITHMS.get(uploadId);
    }

    private static FileSystem fileSystem(FileSystemFactory factory) throws Exception {
        return factory.create(URI.create("s3://" + BUCKET + "/"));
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
