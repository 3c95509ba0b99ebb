package dev.flinks3.it.answers;

import dev.flinks3.it.FlinkS3FileSystems;
import dev.flinks3.it.S3TestTarget;
import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An S3Proxy of its own for one test class, whose answers the test rewrites ({@link AnswerRewriteFilter}),
 * with our filesystem on it (created through Flink's factory, as Flink does) and a plain SDK client to
 * check what really is on the server. Close it after the class.
 */
final class RewrittenAnswersServer implements AutoCloseable {

    static final String BUCKET = "answers";

    private final EmbeddedS3Server server;
    private final S3TestTarget target;
    private final S3Client s3;

    /** @param authenticate false to let rules hide signed headers from S3Proxy */
    RewrittenAnswersServer(boolean authenticate) {
        server = EmbeddedS3Server.builder()
                .bucket(BUCKET)
                .authenticate(authenticate)
                .start();
        target = new S3TestTarget(
                "S3Proxy with rewritten answers",
                server.endpoint(),
                server.accessKey(),
                server.secretKey(),
                server.region(),
                BUCKET);
        s3 = target.sdkClient();
    }

    EmbeddedS3Server server() {
        return server;
    }

    AnswerRewriteFilter answers() {
        return server.answers();
    }

    S3Client s3() {
        return s3;
    }

    S3TestTarget target() {
        return target;
    }

    /** A filesystem factory of its own with these extra options; close its clients with {@link #close(FileSystemFactory)}. */
    FileSystemFactory factory(Map<String, String> options) {
        return FlinkS3FileSystems.factory("s3", target.flinkConfiguration(options));
    }

    static FileSystem fileSystem(FileSystemFactory factory) throws IOException {
        return factory.create(URI.create("s3://" + BUCKET + "/"));
    }

    static void close(FileSystemFactory factory) {
        FlinkS3FileSystems.closeClients(factory);
    }

    /**
     * Refuses CompleteMultipartUpload with 400 {@code InvalidPart} when the key's UploadParts have more than
     * one size besides the largest, as Cloudflare R2 answers uploads whose parts but the last differ in size,
     * until the rules are cleared.
     *
     * @return the armed rule, whose {@code applied()} counts the refusals
     */
    AnswerRewriteFilter.Rule refuseUnequalParts() {
        return answers()
                .refuse(
                        RequestKind.COMPLETE_MULTIPART_UPLOAD,
                        complete -> partsDifferInSize(key(complete.getRequestURI())),
                        AnswerRewriteFilter.ALWAYS,
                        400,
                        "InvalidPart",
                        "All non-trailing parts must have the same length.");
    }

    /** The body sizes, in bytes, of the UploadParts the server received for {@code key}. */
    List<Long> partSizes(String key) {
        return server.requestLog().entries(RequestKind.UPLOAD_PART).stream()
                .filter(r -> r.key().equals(key))
                .map(RewrittenAnswersServer::bodyBytes)
                .collect(Collectors.toList());
    }

    private boolean partsDifferInSize(String key) {
        List<Long> sizes = partSizes(key);
        long largest = sizes.stream().mapToLong(Long::longValue).max().orElse(0);
        return sizes.stream().filter(size -> size != largest).count() > 1;
    }

    private static String key(String requestUri) {
        return requestUri.substring(("/" + BUCKET + "/").length());
    }

    private static long bodyBytes(RequestRecord upload) {
        return Long.parseLong(upload.header("x-amz-decoded-content-length")
                .or(() -> upload.header("Content-Length"))
                .orElseThrow());
    }

    /** Requests of a kind the server received so far. */
    long count(RequestKind kind) {
        return server.requestLog().count(kind);
    }

    static void write(FileSystem fs, Path path, byte[] data, WriteMode mode) throws IOException {
        try (FSDataOutputStream out = fs.create(path, mode)) {
            out.write(data);
        }
    }

    static byte[] read(FileSystem fs, Path path) throws IOException {
        try (InputStream in = fs.open(path)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toByteArray();
        }
    }

    /**
     * Writes {@code before}, persists, writes more and closes the stream as a failing task does, recovers from that
     * persist as the restarted task would, writes {@code after}, commits.
     */
    static void writePersistRecoverAndCommit(FileSystem fs, Path target, byte[] before, byte[] after)
            throws IOException {
        RecoverableWriter writer = fs.createRecoverableWriter();
        RecoverableFsDataOutputStream out = writer.open(target);
        out.write(before);
        RecoverableWriter.ResumeRecoverable persisted = out.persist();
        out.write("lost with the failed task".getBytes(StandardCharsets.UTF_8));
        // The failed task disposes of its stream, as Flink does: its part buffers go back to the process's budget.
        out.close();

        RecoverableFsDataOutputStream resumed = writer.recover(persisted);
        resumed.write(after);
        resumed.closeForCommit().commit();
    }

    /** {@code size} bytes drawn from a random generator seeded with {@code seed}. */
    static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    static String key(Path path) {
        String p = path.toUri().getPath();
        return p.startsWith("/") ? p.substring(1) : p;
    }

    @Override
    public void close() throws Exception {
        s3.close();
        server.close();
    }
}
