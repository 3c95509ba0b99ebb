package dev.flinks3.it.answers;

import static dev.flinks3.it.answers.RewrittenAnswersServer.randomBytes;
import static dev.flinks3.it.answers.RewrittenAnswersServer.read;
import static dev.flinks3.it.answers.RewrittenAnswersServer.writePersistRecoverAndCommit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 23, a store that completes only uploads whose parts but the last have one size (Cloudflare R2
 * answers {@code InvalidPart} otherwise): S3Proxy's CompleteMultipartUpload is refused so when the
 * UploadParts it received for the key differ. A recoverable-writer stream persisted after 6 MiB with
 * 8 MiB parts, recovered from that persist and written on commits byte-exact with {@code
 * s3.upload.uniform-parts: true}; with {@code false} the persist sends a 6 MiB part and the commit is
 * refused, which shows the refusal works, with an error naming the switch (issue 45: R2 behind a custom
 * domain or a proxy, where the endpoint does not show that the store is R2).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class UniformPartsTest {

    private static final int MIB = 1024 * 1024;

    private RewrittenAnswersServer server;
    private final String base = "UniformPartsTest/" + UUID.randomUUID();

    @BeforeAll
    void start() {
        server = new RewrittenAnswersServer(true);
        server.refuseUnequalParts();
    }

    @AfterEach
    void clearLog() {
        server.server().requestLog().clear();
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
    }

    @Test
    void aPersistedAndRecoveredStreamCommitsByteExactWithUniformParts() throws Exception {
        FileSystemFactory factory =
                server.factory(Map.of("s3.upload.min.part.size", "8mb", "s3.upload.uniform-parts", "true"));
        try {
            Path target = path("uniform/part-0-0");
            byte[] before = randomBytes(6 * MIB, 1);
            byte[] after = randomBytes(13 * MIB + 3, 2);

            writePersistRecoverAndCommit(RewrittenAnswersServer.fileSystem(factory), target, before, after);

            assertThat(read(RewrittenAnswersServer.fileSystem(factory), target)).isEqualTo(concat(before, after));
            assertThat(partSizes(key(target)))
                    .as("sizes of the UploadParts")
                    .containsExactlyInAnyOrder(8L * MIB, 8L * MIB, 3L * MIB + 3);
        } finally {
            RewrittenAnswersServer.close(factory);
        }
    }

    @Test
    void withoutUniformPartsThePersistSendsAShortPartAndTheStoreRefusesTheCommit() throws Exception {
        FileSystemFactory factory =
                server.factory(Map.of("s3.upload.min.part.size", "8mb", "s3.upload.uniform-parts", "false"));
        try {
            Path target = path("growing/part-0-0");

            Throwable failure = catchThrowable(() -> writePersistRecoverAndCommit(
                    RewrittenAnswersServer.fileSystem(factory),
                    target,
                    randomBytes(6 * MIB, 3),
                    randomBytes(13 * MIB + 3, 4)));

            assertThat(failure)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("InvalidPart")
                    .as("the store is R2 behind an endpoint that does not say so: the answer names the switch")
                    .hasMessageContaining("s3.upload.uniform-parts: true");
            assertThat(partSizes(key(target))).contains(6L * MIB);
        } finally {
            RewrittenAnswersServer.close(factory);
        }
    }

    private List<Long> partSizes(String key) {
        return server.partSizes(key);
    }

    private Path path(String relative) {
        return new Path("s3://" + RewrittenAnswersServer.BUCKET + "/" + base + "/" + relative);
    }

    private static String key(Path path) {
        return RewrittenAnswersServer.key(path);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
