package dev.flinks3.it.answers;

import static dev.flinks3.it.answers.RewrittenAnswersServer.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.RequestKind;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 23, answers to CompleteMultipartUpload the plugin must not take at their word: a 500 where the
 * upload is already gone (Ceph before a 2026 fix answers 500 instead of NoSuchUpload), and a 200 whose
 * body is an {@code <Error>} (S3 documents that a completion can fail after its 200 status was sent).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CompletionAnswersTest {

    private static final int MIB = 1024 * 1024;

    private RewrittenAnswersServer server;
    private FileSystemFactory factory;
    private final String base = "CompletionAnswersTest/" + UUID.randomUUID();

    private FileSystem start(Map<String, String> options) throws Exception {
        server = new RewrittenAnswersServer(true);
        factory = server.factory(options);
        return RewrittenAnswersServer.fileSystem(factory);
    }

    @AfterEach
    void stop() throws Exception {
        if (factory != null) {
            RewrittenAnswersServer.close(factory);
        }
        if (server != null) {
            server.close();
        }
    }

    private Path path(String relative) {
        return new Path("s3://" + RewrittenAnswersServer.BUCKET + "/" + base + "/" + relative);
    }

    @Test
    void aCommitAfterRecoveryOfACompletedUploadSpendsNoRetriesOnA500ForTheGoneUpload() throws Exception {
        FileSystem fs = start(Map.of("s3.upload.min.part.size", "5mb"));
        byte[] data = new byte[6 * MIB];
        new Random(5).nextBytes(data);
        RecoverableWriter writer = fs.createRecoverableWriter();
        RecoverableFsDataOutputStream out = writer.open(path("part-0"));
        out.write(data);
        RecoverableWriter.CommitRecoverable recoverable = out.closeForCommit().getRecoverable();
        writer.recoverForCommit(recoverable).commit();
        // The upload is gone now; this server answers a completion of it with 500 instead of NoSuchUpload.
        AnswerRewriteFilter.Rule gone = server.answers()
                .rewrite(
                        RequestKind.COMPLETE_MULTIPART_UPLOAD,
                        request -> true,
                        AnswerRewriteFilter.ALWAYS,
                        (request, served) -> served.status() == 404
                                ? AnswerRewriteFilter.Answer.error(500, "InternalError", "upload is gone")
                                : served);
        long completionsBefore = server.count(RequestKind.COMPLETE_MULTIPART_UPLOAD);

        writer.recoverForCommit(recoverable).commitAfterRecovery();

        assertThat(server.count(RequestKind.COMPLETE_MULTIPART_UPLOAD) - completionsBefore)
                .as("CompleteMultipartUpload requests of the restore (%s answered 500)", gone.applied())
                .isZero();
        assertThat(read(fs, path("part-0"))).isEqualTo(data);
    }

    @ParameterizedTest(name = "s3.client: {0}")
    @ValueSource(strings = {"sdk", "crt"})
    void aCompletionAnswered200WithAnErrorBodyIsRetried(String client) throws Exception {
        FileSystem fs = start(Map.of("s3.upload.min.part.size", "5mb", "s3.client", client));
        String error = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>InternalError</Code>"
                + "<Message>We encountered an internal error. Please try again.</Message>"
                + "<RequestId>answer-rewrite</RequestId></Error>";
        AnswerRewriteFilter.Rule failedIn200 = server.answers()
                .answer(
                        RequestKind.COMPLETE_MULTIPART_UPLOAD,
                        request -> true,
                        1,
                        new AnswerRewriteFilter.Answer(200, error.getBytes(StandardCharsets.UTF_8)));
        byte[] data = new byte[11 * MIB];
        new Random(6).nextBytes(data);

        RewrittenAnswersServer.write(fs, path("file-" + client), data, WriteMode.NO_OVERWRITE);

        assertThat(failedIn200.applied()).isEqualTo(1);
        assertThat(server.count(RequestKind.COMPLETE_MULTIPART_UPLOAD))
                .as("CompleteMultipartUpload requests (the first answered 200 with <Error>)")
                .isGreaterThanOrEqualTo(2);
        assertThat(read(fs, path("file-" + client))).isEqualTo(data);
    }
}
