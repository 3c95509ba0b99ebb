package dev.flinks3.fs;

import static dev.flinks3.fs.TestFileSystems.BUCKET;
import static dev.flinks3.fs.TestFileSystems.PART;
import static dev.flinks3.fs.TestFileSystems.bytes;
import static dev.flinks3.fs.TestFileSystems.fileSystem;
import static dev.flinks3.fs.TestFileSystems.location;
import static dev.flinks3.fs.TestFileSystems.path;
import static dev.flinks3.fs.TestFileSystems.smallParts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.util.Random;
import org.apache.flink.core.fs.ByteBufferReadable;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class S3FileSystemStreamsTest {

    private final InMemoryObjectClient client = new InMemoryObjectClient();
    private final S3FileSystem fs = fileSystem(client);

    @Test
    void aSmallFileIsOnePutObject() throws IOException {
        probeConditionalWrites();
        write(path("small"), bytes("hello"), WriteMode.NO_OVERWRITE);

        assertThat(client.bytesOf(location("small"))).isEqualTo(bytes("hello"));
        assertThat(client.calls(Operation.PUT)).isEqualTo(1);
        assertThat(client.calls(Operation.CREATE_MULTIPART_UPLOAD)).isZero();
    }

    @Test
    void aLargeFileIsUploadedInPartsAndReadsBackExactly() throws IOException {
        byte[] data = random((int) (2 * PART + 12345));
        probeConditionalWrites();

        try (FSDataOutputStream out = fs.create(path("large"), WriteMode.NO_OVERWRITE)) {
            for (int off = 0; off < data.length; off += 100_000) {
                out.write(data, off, Math.min(100_000, data.length - off));
            }
            assertThat(out.getPos()).isEqualTo(data.length);
        }

        assertThat(client.calls(Operation.UPLOAD_PART)).isEqualTo(3);
        assertThat(client.pendingUploads()).isEmpty();
        assertThat(readAll(path("large"))).isEqualTo(data);
    }

    @Test
    void nothingIsVisibleBeforeClose() throws IOException {
        FSDataOutputStream out = fs.create(path("pending"), WriteMode.NO_OVERWRITE);
        out.write(random((int) PART + 1));

        assertThat(fs.exists(path("pending"))).isFalse();
        out.close();
        assertThat(fs.getFileStatus(path("pending")).getLen()).isEqualTo(PART + 1);
    }

    @Test
    void noOverwriteIsAConditionalWriteThatFailsAtClose() throws IOException {
        client.store(location("taken"), bytes("first"));

        FSDataOutputStream out = fs.create(path("taken"), WriteMode.NO_OVERWRITE);
        out.write(bytes("second"));
        assertThat(client.calls(Operation.HEAD))
                .as("no check before the conditional write")
                .isZero();

        assertThatThrownBy(out::close).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(client.bytesOf(location("taken"))).isEqualTo(bytes("first"));
    }

    @Test
    void withoutConditionalWritesNoOverwriteChecksTheKeyAtCreate() {
        S3FileSystem checking = fileSystem(
                client,
                S3FileSystemSettings.of(smallParts()
                        .upload(u -> u.conditionalWritesEnabled(false))
                        .build()),
                null);
        client.store(location("taken"), bytes("first"));

        assertThatThrownBy(() -> checking.create(path("taken"), WriteMode.NO_OVERWRITE))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining("s3://bucket/taken");
    }

    @Test
    void overwriteNeverDeletesTheOldObjectFirst() throws IOException {
        client.store(location("state"), bytes("old"));

        FSDataOutputStream out = fs.create(path("state"), WriteMode.OVERWRITE);
        out.write(bytes("new"));
        assertThat(readAll(path("state"))).isEqualTo(bytes("old"));
        out.close();

        assertThat(readAll(path("state"))).isEqualTo(bytes("new"));
        assertThat(client.calls(Operation.DELETE)).isZero();
        assertThat(client.calls(Operation.DELETE_BATCH)).isZero();
    }

    @Test
    void aZeroByteFileIsCreatedListedAndReadAsEmpty() throws IOException {
        fs.create(path("dir/empty"), WriteMode.NO_OVERWRITE).close();

        FileStatus status = fs.getFileStatus(path("dir/empty"));
        assertThat(status.isDir()).isFalse();
        assertThat(status.getLen()).isZero();
        assertThat(fs.listStatus(path("dir"))).extracting(FileStatus::getPath).containsExactly(path("dir/empty"));
        try (FSDataInputStream in = fs.open(path("dir/empty"))) {
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void openIsLazyAndAMissingObjectFailsAtTheFirstRead() throws IOException {
        FSDataInputStream in = fs.open(path("missing"));

        assertThat(client.calls(Operation.GET) + client.calls(Operation.HEAD)).isZero();
        assertThatThrownBy(in::read)
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("s3://bucket/missing");
        in.close();
    }

    @Test
    void seekMovesTheReadPosition() throws IOException {
        byte[] data = random(300_000);
        client.store(location("seek"), data);

        try (FSDataInputStream in = fs.open(path("seek"), 4096)) {
            in.seek(250_000);
            assertThat(in.getPos()).isEqualTo(250_000);
            assertThat(in.read()).isEqualTo(data[250_000] & 0xff);
            in.seek(10);
            byte[] back = new byte[5];
            assertThat(in.read(back, 0, 5)).isEqualTo(5);
            assertThat(back).isEqualTo(java.util.Arrays.copyOfRange(data, 10, 15));
            assertThat(in.getPos()).isEqualTo(15);
        }
    }

    @Test
    void positionalReadsDoNotMoveTheStream() throws IOException {
        byte[] data = random(200_000);
        client.store(location("positional"), data);

        try (FSDataInputStream in = fs.open(path("positional"))) {
            assertThat(in).isInstanceOf(ByteBufferReadable.class);
            ByteBufferReadable positional = (ByteBufferReadable) in;
            in.seek(1000);
            ByteBuffer buffer = ByteBuffer.allocateDirect(100);

            assertThat(positional.read(150_000, buffer)).isEqualTo(100);

            buffer.flip();
            byte[] got = new byte[100];
            buffer.get(got);
            assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(data, 150_000, 150_100));
            assertThat(in.getPos()).isEqualTo(1000);
            assertThat(in.read()).isEqualTo(data[1000] & 0xff);
            assertThat(positional.read(data.length, ByteBuffer.allocate(1))).isEqualTo(-1);
        }
    }

    @Test
    void sequentialByteBufferReadsAdvanceTheStream() throws IOException {
        byte[] data = random(1000);
        client.store(location("buffered"), data);

        try (FSDataInputStream in = fs.open(path("buffered"))) {
            ByteBuffer buffer = ByteBuffer.allocate(600);
            int n = ((ByteBufferReadable) in).read(buffer);

            assertThat(n).isPositive();
            assertThat(in.getPos()).isEqualTo(n);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "with space/file name",
                "plus+sign",
                "per%cent%20not-an-escape",
                "eq=uals/k=v",
                "hash#tag",
                "unicodé/日本語/ünïcödé",
                "colon:in:name",
                "question?mark"
            })
    void specialCharacterKeysRoundTrip(String key) throws IOException {
        Path path = new Path("s3", BUCKET, "/dir/" + key);
        Path renamed = new Path("s3", BUCKET, "/moved/" + path.getName());

        write(path, bytes(key), WriteMode.NO_OVERWRITE);
        assertThat(client.keys(BUCKET)).containsExactly("dir/" + key);
        assertThat(readAll(path)).isEqualTo(bytes(key));
        assertThat(fs.getFileStatus(path).getLen()).isEqualTo(bytes(key).length);
        assertThat(fs.listStatus(path.getParent()))
                .extracting(FileStatus::getPath)
                .containsExactly(path);

        assertThat(fs.rename(path, renamed)).isTrue();
        assertThat(client.keys(BUCKET)).containsExactly("moved/" + renamed.getName());
        assertThat(readAll(renamed)).isEqualTo(bytes(key));

        assertThat(fs.delete(renamed, false)).isTrue();
        assertThat(client.keys(BUCKET)).isEmpty();
    }

    @Test
    void aPathWrittenAsAStringMapsToTheLiteralKey() throws IOException {
        Path path = new Path("s3://bucket/a b/c+d%e=f#g/ü");

        write(path, bytes("x"), WriteMode.NO_OVERWRITE);

        assertThat(client.keys(BUCKET)).containsExactly("a b/c+d%e=f#g/ü");
        assertThat(fs.listStatus(new Path("s3://bucket/a b/c+d%e=f#g")))
                .extracting(FileStatus::getPath)
                .containsExactly(path);
    }

    /**
     * The filesystem's first conditional write of each kind (PutObject, CompleteMultipartUpload) probes
     * whether the server honours {@code If-None-Match} with requests of its own; this writes one file of
     * each kind and resets the counters, so a test counts only the requests of its own file.
     */
    private void probeConditionalWrites() throws IOException {
        write(path("probed-small"), bytes("x"), WriteMode.NO_OVERWRITE);
        write(path("probed-large"), random((int) PART + 1), WriteMode.NO_OVERWRITE);
        client.resetCounters();
    }

    private void write(Path path, byte[] data, WriteMode mode) throws IOException {
        try (FSDataOutputStream out = fs.create(path, mode)) {
            out.write(data);
        }
    }

    private byte[] readAll(Path path) throws IOException {
        try (FSDataInputStream in = fs.open(path)) {
            return in.readAllBytes();
        }
    }

    private static byte[] random(int size) {
        byte[] data = new byte[size];
        new Random(size).nextBytes(data);
        return data;
    }
}
