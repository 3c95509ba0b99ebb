package dev.flinks3.fs;

import static dev.flinks3.fs.TestFileSystems.BUCKET;
import static dev.flinks3.fs.TestFileSystems.PART;
import static dev.flinks3.fs.TestFileSystems.bytes;
import static dev.flinks3.fs.TestFileSystems.fileSystem;
import static dev.flinks3.fs.TestFileSystems.location;
import static dev.flinks3.fs.TestFileSystems.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.writer.S3RecoverableWriter;
import dev.flinks3.writer.TailObjects;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.Test;

/** The recoverable writer as the filesystem hands it out, and how the namespace hides its tail objects. */
class S3FileSystemRecoverableWriterTest {

    private final InMemoryObjectClient client = new InMemoryObjectClient();
    private final S3FileSystem fs = fileSystem(client);

    @Test
    void theFileSystemHandsOutTheS3RecoverableWriter() throws IOException {
        RecoverableWriter writer = fs.createRecoverableWriter();

        assertThat(writer).isInstanceOf(S3RecoverableWriter.class);
        assertThat(writer.supportsResume()).isTrue();
        assertThat(writer.requiresCleanupOfRecoverableState()).isTrue();
    }

    @Test
    void aCommittedStreamReadsBackThroughTheFileSystem() throws IOException {
        byte[] data = new byte[(int) PART + 100];
        new java.util.Random(1).nextBytes(data);
        RecoverableFsDataOutputStream out = fs.createRecoverableWriter().open(path("out/part-0"));
        out.write(data, 0, 50);
        out.persist();
        out.write(data, 50, data.length - 50);
        out.closeForCommit().commit();

        byte[] read = new byte[data.length];
        try (FSDataInputStream in = fs.open(path("out/part-0"))) {
            int n = 0;
            while (n < read.length) {
                n += in.read(read, n, read.length - n);
            }
        }
        assertThat(read).isEqualTo(data);
    }

    @Test
    void listingHidesTailObjectsBesideCommittedFiles() throws IOException {
        client.store(location("out/done"), bytes("committed"));
        String tailKey = persistedTail("out/in-progress");

        assertThat(fs.listStatus(path("out")))
                .extracting(status -> status.getPath().getName())
                .containsExactly("done");
        assertThatThrownBy(() -> fs.getFileStatus(path(tailKey))).isInstanceOf(FileNotFoundException.class);
        assertThatThrownBy(() -> fs.listStatus(path(tailKey))).isInstanceOf(FileNotFoundException.class);
        assertThat(fs.exists(path("out/in-progress"))).isFalse();
        assertThat(fs.delete(path(tailKey), false)).isFalse();
        assertThat(client.exists(location(tailKey))).isTrue();
    }

    @Test
    void aDirectoryHoldingOnlyTailsIsNoDirectory() throws IOException {
        client.store(location("root/visible"), bytes("x"));
        persistedTail("root/bucket-1/part-0");
        persistedTail("root/bucket-1/nested/part-1");

        assertThat(fs.exists(path("root/bucket-1"))).isFalse();
        assertThat(fs.exists(path("root/bucket-1/nested"))).isFalse();
        assertThatThrownBy(() -> fs.getFileStatus(path("root/bucket-1")))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("s3://bucket/root/bucket-1");
        assertThatThrownBy(() -> fs.listStatus(path("root/bucket-1"))).isInstanceOf(FileNotFoundException.class);
        assertThat(fs.listStatus(path("root"))).extracting(FileStatus::getPath).containsExactly(path("root/visible"));
    }

    @Test
    void aDirectoryWithAVisibleObjectBehindManyTailsIsADirectory() throws IOException {
        for (int i = 0; i < 20; i++) {
            persistedTail("many/part-" + i);
        }
        client.store(location("many/z-committed"), bytes("z"));

        assertThat(fs.getFileStatus(path("many")).isDir()).isTrue();
        assertThat(fs.listStatus(path("")))
                .extracting(FileStatus::getPath, FileStatus::isDir)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(path("many"), true));
        assertThat(fs.listStatus(path("many")))
                .extracting(FileStatus::getPath)
                .containsExactly(path("many/z-committed"));
    }

    @Test
    void nonRecursiveDeleteTreatsTailsAsInvisibleAndKeepsThem() throws IOException {
        fs.mkdirs(path("empty-looking"));
        String tailKey = persistedTail("empty-looking/part-0");

        assertThat(fs.delete(path("empty-looking"), false)).isTrue();

        assertThat(client.keys(BUCKET)).containsExactly(tailKey);
        assertThat(fs.delete(path("empty-looking"), false)).isFalse();
    }

    @Test
    void recursiveDeleteRemovesTailsToo() throws IOException {
        client.store(location("tree/file"), bytes("x"));
        persistedTail("tree/part-0");

        assertThat(fs.delete(path("tree"), true)).isTrue();

        assertThat(client.keys(BUCKET)).isEmpty();
    }

    /** Opens a recoverable stream to {@code key}, persists a few bytes and abandons it; returns the tail's key. */
    private String persistedTail(String key) throws IOException {
        RecoverableFsDataOutputStream out = fs.createRecoverableWriter().open(path(key));
        out.write(bytes("in progress"));
        out.persist();
        out.close();
        List<String> tails = client.keys(BUCKET).stream()
                .filter(k -> TailObjects.isTailObjectName(k.substring(k.lastIndexOf('/') + 1)))
                .filter(k -> k.startsWith(key.substring(0, key.lastIndexOf('/') + 1) + "."
                        + key.substring(key.lastIndexOf('/') + 1) + TailObjects.MARKER))
                .toList();
        assertThat(tails).hasSize(1);
        return tails.get(0);
    }
}
