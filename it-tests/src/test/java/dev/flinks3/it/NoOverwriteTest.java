package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * {@link WriteMode#NO_OVERWRITE} never replaces an existing object, also when two writers race for
 * the same key; {@link WriteMode#OVERWRITE} replaces without deleting first, so readers never see
 * the key missing (issue 2, write path). S3Proxy 4.1.0 honours {@code If-None-Match: *}.
 */
class NoOverwriteTest extends AbstractS3ProxyFileSystemTest {

    private static final byte[] ORIGINAL = "original".getBytes(StandardCharsets.UTF_8);

    @Override
    protected Map<String, String> options() {
        return Map.of("s3.upload.min.part.size", "5mb");
    }

    @Test
    void smallWriteOnAnExistingKeyFailsAndKeepsTheObject() throws Exception {
        Path path = new Path(dir, "existing");
        putOriginal(path);

        Throwable failure = catchThrowable(() -> write(path, "replacement".getBytes(StandardCharsets.UTF_8)));

        assertThat(failure).isInstanceOf(IOException.class);
        assertThat(objectBytes(path)).isEqualTo(ORIGINAL);
    }

    @Test
    void multipartWriteOnAnExistingKeyFailsKeepsTheObjectAndLeavesNoUpload() throws Exception {
        Path path = new Path(dir, "existing-large");
        putOriginal(path);

        Throwable failure = catchThrowable(() -> write(path, randomBytes(6 * MIB, 5)));

        assertThat(failure).isInstanceOf(IOException.class);
        assertThat(objectBytes(path)).isEqualTo(ORIGINAL);
        assertThat(s3.listMultipartUploads(b -> b.bucket(target.bucket()).prefix(key(dir)))
                        .uploads())
                .isEmpty();
    }

    @Test
    void ofTwoRacingWritersExactlyOneWins() throws Exception {
        Path path = new Path(dir, "raced");
        byte[] first = "first writer".getBytes(StandardCharsets.UTF_8);
        byte[] second = "second writer".getBytes(StandardCharsets.UTF_8);

        // Both streams exist before either closes: a check at create() time cannot tell them apart.
        FSDataOutputStream a = fs.create(path, WriteMode.NO_OVERWRITE);
        Throwable secondCreate = null;
        FSDataOutputStream b = null;
        try {
            b = fs.create(path, WriteMode.NO_OVERWRITE);
        } catch (IOException e) {
            secondCreate = e;
        }
        a.write(first);
        a.close();
        Throwable secondClose = null;
        if (b != null) {
            b.write(second);
            FSDataOutputStream loser = b;
            secondClose = catchThrowable(loser::close);
        }

        assertThat(secondCreate != null || secondClose != null)
                .as("the second writer failed")
                .isTrue();
        assertThat(objectBytes(path)).isEqualTo(first);
    }

    @Test
    void overwriteReplacesWithoutDeletingFirst() throws Exception {
        Path path = new Path(dir, "replaced");
        putOriginal(path);
        byte[] replacement = "replacement".getBytes(StandardCharsets.UTF_8);
        long batchDeletesBefore = server.requestLog().count(RequestKind.DELETE_OBJECTS);

        try (FSDataOutputStream out = fs.create(path, WriteMode.OVERWRITE)) {
            out.write(replacement);
        }

        assertThat(objectBytes(path)).isEqualTo(replacement);
        assertThat(server.requestLog().entries(RequestKind.DELETE_OBJECT))
                .noneSatisfy(delete -> assertThat(delete.key()).isEqualTo(key(path)));
        assertThat(server.requestLog().count(RequestKind.DELETE_OBJECTS)).isEqualTo(batchDeletesBefore);
    }

    private void putOriginal(Path path) {
        s3.putObject(b -> b.bucket(target.bucket()).key(key(path)), RequestBody.fromBytes(ORIGINAL));
    }
}
