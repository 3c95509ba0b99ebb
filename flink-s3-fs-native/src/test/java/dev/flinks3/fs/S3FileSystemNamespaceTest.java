package dev.flinks3.fs;

import static dev.flinks3.fs.TestFileSystems.BUCKET;
import static dev.flinks3.fs.TestFileSystems.bytes;
import static dev.flinks3.fs.TestFileSystems.fileSystem;
import static dev.flinks3.fs.TestFileSystems.location;
import static dev.flinks3.fs.TestFileSystems.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;

class S3FileSystemNamespaceTest {

    private final InMemoryObjectClient client = new InMemoryObjectClient();
    private final S3FileSystem fs = fileSystem(client);
    /** A filesystem with {@code s3.directory-markers.enabled: false}. */
    private final S3FileSystem withoutMarkers = fileSystem(
            client,
            S3FileSystemSettings.of(TestFileSystems.smallParts().build()).withDirectoryMarkers(false),
            null);

    @Test
    void anObjectIsAFileWithItsLength() throws IOException {
        client.store(location("dir/data"), bytes("12345"));

        FileStatus status = fs.getFileStatus(path("dir/data"));

        assertThat(status.isDir()).isFalse();
        assertThat(status.getLen()).isEqualTo(5);
        assertThat(status.getPath()).isEqualTo(path("dir/data"));
    }

    @Test
    void aZeroByteObjectIsAFile() throws IOException {
        client.store(location("dir/empty"), new byte[0]);

        FileStatus status = fs.getFileStatus(path("dir/empty"));

        assertThat(status.isDir()).isFalse();
        assertThat(status.getLen()).isZero();
        assertThat(fs.exists(path("dir/empty"))).isTrue();
        assertThat(fs.listStatus(path("dir"))).extracting(FileStatus::getPath).containsExactly(path("dir/empty"));
    }

    @Test
    void aPrefixWithChildrenIsADirectory() throws IOException {
        client.store(location("a/b/c/file"), bytes("x"));

        assertThat(fs.getFileStatus(path("a")).isDir()).isTrue();
        assertThat(fs.getFileStatus(path("a/b/c")).isDir()).isTrue();
    }

    @Test
    void aDirectoryMarkerWrittenByAnotherToolIsAnEmptyDirectory() throws IOException {
        client.store(location("made-by-s3a/"), new byte[0]);

        assertThat(fs.getFileStatus(path("made-by-s3a")).isDir()).isTrue();
        assertThat(fs.listStatus(path("made-by-s3a"))).isEmpty();
        assertThat(fs.listStatus(path("")))
                .extracting(FileStatus::getPath, FileStatus::isDir)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(path("made-by-s3a"), true));
    }

    @Test
    void aMissingPathIsReportedWithItsLocation() {
        assertThatThrownBy(() -> fs.getFileStatus(path("nothing/here")))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("s3://bucket/nothing/here");
        assertThatThrownBy(() -> fs.listStatus(path("nothing/here")))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("s3://bucket/nothing/here");
    }

    @Test
    void theBucketRootIsADirectory() throws IOException {
        assertThat(fs.getFileStatus(new Path("s3://bucket/")).isDir()).isTrue();
        assertThat(fs.listStatus(new Path("s3://bucket/"))).isEmpty();
    }

    @Test
    void listingShowsFilesAndSubdirectoriesButNotTheOwnMarker() throws IOException {
        client.store(location("dir/"), new byte[0]);
        client.store(location("dir/file1"), bytes("1"));
        client.store(location("dir/sub/file2"), bytes("22"));
        client.store(location("dir/sub2/"), new byte[0]);
        client.store(location("dirty"), bytes("not a child"));

        FileStatus[] listed = fs.listStatus(path("dir"));

        assertThat(listed)
                .extracting(FileStatus::getPath, FileStatus::isDir)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(path("dir/file1"), false),
                        org.assertj.core.groups.Tuple.tuple(path("dir/sub"), true),
                        org.assertj.core.groups.Tuple.tuple(path("dir/sub2"), true));
    }

    @Test
    void listingPagesThroughMoreThanAThousandKeys() throws IOException {
        for (int i = 0; i < 2500; i++) {
            client.store(location(String.format("big/f%05d", i)), new byte[0]);
        }
        client.resetCounters();

        FileStatus[] listed = fs.listStatus(path("big"));

        assertThat(listed).hasSize(2500);
        assertThat(Arrays.stream(listed).map(s -> s.getPath().getName()).distinct())
                .hasSize(2500);
        assertThat(client.calls(Operation.LIST)).isEqualTo(3);
    }

    @Test
    void listingAFileGivesTheFile() throws IOException {
        client.store(location("just/a/file"), bytes("abc"));

        assertThat(fs.listStatus(path("just/a/file")))
                .extracting(FileStatus::getLen)
                .containsExactly(3L);
    }

    @Test
    void deletingAFileRemovesOnlyIt() throws IOException {
        client.store(location("d/f"), bytes("x"));
        client.store(location("d/g"), bytes("y"));

        assertThat(fs.delete(path("d/f"), false)).isTrue();

        assertThat(client.keys(BUCKET)).containsExactly("d/g");
    }

    @Test
    void deletingNothingReturnsFalse() throws IOException {
        assertThat(fs.delete(path("ghost"), false)).isFalse();
        assertThat(fs.delete(path("ghost"), true)).isFalse();
    }

    @Test
    void aNonEmptyDirectoryIsNotDeletedWithoutRecursive() {
        client.store(location("full/"), new byte[0]);
        client.store(location("full/child"), bytes("x"));

        assertThatThrownBy(() -> fs.delete(path("full"), false))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("s3://bucket/full")
                .hasMessageContaining("not empty");
        assertThat(client.keys(BUCKET)).containsExactly("full/", "full/child");
    }

    @Test
    void anEmptyDirectoryIsDeletedWithoutRecursive() throws IOException {
        fs.mkdirs(path("empty"));

        assertThat(fs.delete(path("empty"), false)).isTrue();

        assertThat(fs.exists(path("empty"))).isFalse();
        assertThat(client.keys(BUCKET)).isEmpty();
    }

    @Test
    void recursiveDeleteUsesBatchesOfAThousandKeys() throws IOException {
        for (int i = 0; i < 2500; i++) {
            client.store(location("tree/" + (i % 7) + "/f" + i), new byte[0]);
        }
        client.store(location("tree/"), new byte[0]);
        client.store(location("treetop"), bytes("stays"));
        client.resetCounters();

        assertThat(fs.delete(path("tree"), true)).isTrue();

        assertThat(client.keys(BUCKET)).containsExactly("treetop");
        assertThat(client.calls(Operation.DELETE_BATCH)).isEqualTo(3);
        assertThat(client.calls(Operation.DELETE)).isZero();
    }

    @Test
    void aKeyThatCouldNotBeDeletedIsNamedAndTheRestIsDeleted() {
        client.store(location("mixed/ok1"), bytes("1"));
        client.store(location("mixed/locked"), bytes("2"));
        client.store(location("mixed/ok2"), bytes("3"));
        client.denyDelete(location -> location.key().endsWith("locked"));

        assertThatThrownBy(() -> fs.delete(path("mixed"), true))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("s3://bucket/mixed/locked")
                .hasMessageContaining("DeleteObjects answered HTTP 200")
                .hasMessageContaining("AccessDenied");
        assertThat(client.keys(BUCKET)).containsExactly("mixed/locked");
    }

    @Test
    void theBucketRootIsNeverDeleted() {
        client.store(location("precious"), bytes("x"));

        assertThatThrownBy(() -> fs.delete(new Path("s3://bucket/"), true))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("root");
        assertThat(client.keys(BUCKET)).containsExactly("precious");
    }

    @Test
    void mkdirsWithoutMarkersSendsNoRequestAndOnlyTheFileSystemThatMadeTheDirectorySeesItBeforeAnObject()
            throws IOException {
        client.store(location("file"), bytes("x"));
        client.resetCounters();

        assertThat(withoutMarkers.mkdirs(path("a/b/c"))).isTrue();
        assertThat(withoutMarkers.mkdirs(path("a/b/c"))).isTrue();
        assertThat(withoutMarkers.mkdirs(path("file")))
                .as("a file at the path is not looked for")
                .isTrue();
        assertThat(withoutMarkers.exists(path("a/b/c"))).isTrue();
        assertThat(withoutMarkers.getFileStatus(path("a")).isDir())
                .as("a parent of a directory it made")
                .isTrue();
        assertThat(Arrays.stream(Operation.values()).mapToInt(client::calls).sum())
                .as("requests for mkdirs and for the status of the directories it made")
                .isZero();

        assertThat(withoutMarkers.listStatus(path("a/b/c"))).isEmpty();
        assertThat(withoutMarkers.listStatus(path("a")))
                .extracting(FileStatus::getPath, FileStatus::isDir)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(path("a/b"), true));
        assertThat(Arrays.stream(Operation.values()).mapToInt(client::calls).sum())
                .as("a listing still asks S3 (another process may have put objects there): one LIST each")
                .isEqualTo(client.calls(Operation.LIST))
                .isEqualTo(2);
        assertThat(client.keys(BUCKET)).containsExactly("file");
        assertThat(fs.exists(path("a/b/c")))
                .as("another filesystem sees the directory only through an object under it")
                .isFalse();
        client.store(location("a/b/c/000001.sst"), bytes("sst"));
        assertThat(fs.getFileStatus(path("a/b/c")).isDir()).isTrue();
        assertThat(withoutMarkers.listStatus(path("a/b/c")))
                .extracting(FileStatus::getPath)
                .containsExactly(path("a/b/c/000001.sst"));
    }

    @Test
    void aDirectoryMadeWithoutMarkersIsGoneOnceDeletedAndMovesWithARename() throws IOException {
        withoutMarkers.mkdirs(path("job/db"));
        withoutMarkers.mkdirs(path("job/db/sub"));
        withoutMarkers.mkdirs(path("job/tmp"));

        assertThatThrownBy(() -> withoutMarkers.delete(path("job/db"), false))
                .as("a directory it made below is content")
                .isInstanceOf(IOException.class)
                .hasMessageContaining("not empty");
        assertThat(withoutMarkers.delete(path("job/db/sub"), false)).isTrue();
        assertThat(withoutMarkers.exists(path("job/db/sub"))).isFalse();
        assertThat(withoutMarkers.delete(path("job/db"), false)).isTrue();
        assertThat(withoutMarkers.exists(path("job/db"))).isFalse();
        assertThat(withoutMarkers.delete(path("job/db"), false))
                .as("nothing left to delete")
                .isFalse();

        assertThat(withoutMarkers.rename(path("job/tmp"), path("job/done"))).isTrue();
        assertThat(withoutMarkers.exists(path("job/tmp"))).isFalse();
        assertThat(withoutMarkers.exists(path("job/done"))).isTrue();
        assertThat(withoutMarkers.delete(path("job"), true)).isTrue();
        assertThat(withoutMarkers.exists(path("job/done"))).isFalse();
        assertThat(client.keys(BUCKET)).isEmpty();
    }

    @Test
    void aFileCreatedWhereADirectoryWasMadeWithoutMarkersIsAFile() throws IOException {
        withoutMarkers.mkdirs(path("x"));

        try (var out = withoutMarkers.create(path("x"), org.apache.flink.core.fs.FileSystem.WriteMode.OVERWRITE)) {
            out.write(bytes("abc"));
        }

        FileStatus status = withoutMarkers.getFileStatus(path("x"));
        assertThat(status.isDir()).isFalse();
        assertThat(status.getLen()).isEqualTo(3);
    }

    @Test
    void mkdirsWritesAMarkerSoTheEmptyDirectoryExists() throws IOException {
        assertThat(fs.mkdirs(path("a/b/c"))).isTrue();

        assertThat(client.keys(BUCKET)).containsExactly("a/b/c/");
        assertThat(fs.getFileStatus(path("a/b/c")).isDir()).isTrue();
        assertThat(fs.getFileStatus(path("a")).isDir()).isTrue();
        assertThat(fs.mkdirs(path("a/b/c"))).isTrue();
    }

    @Test
    void mkdirsOverAFileFails() {
        client.store(location("file"), bytes("x"));

        assertThatThrownBy(() -> fs.mkdirs(path("file")))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining("s3://bucket/file");
        assertThat(client.keys(BUCKET))
                .as("the marker written beside the HEAD is deleted again")
                .containsExactly("file");
    }

    @Test
    void renamingAFileCopiesServerSideAndDeletesTheSource() throws IOException {
        client.store(location("from/file"), bytes("payload"));

        assertThat(fs.rename(path("from/file"), path("to/file"))).isTrue();

        assertThat(client.keys(BUCKET)).containsExactly("to/file");
        assertThat(client.bytesOf(location("to/file"))).isEqualTo(bytes("payload"));
        assertThat(client.calls(Operation.COPY)).isEqualTo(1);
        assertThat(client.calls(Operation.GET)).isZero();
    }

    @Test
    void renamingADirectoryMovesEveryObjectUnderIt() throws IOException {
        client.store(location("src/"), new byte[0]);
        client.store(location("src/a"), bytes("a"));
        client.store(location("src/sub/b"), bytes("b"));
        client.store(location("srcfile"), bytes("not inside"));

        assertThat(fs.rename(path("src"), path("dst"))).isTrue();

        assertThat(client.keys(BUCKET)).containsExactly("dst/", "dst/a", "dst/sub/b", "srcfile");
        assertThat(client.bytesOf(location("dst/sub/b"))).isEqualTo(bytes("b"));
    }

    @Test
    void renameNeverOverwritesAndRejectsImpossibleMoves() throws IOException {
        client.store(location("one"), bytes("1"));
        client.store(location("two"), bytes("2"));
        client.store(location("dir/x"), bytes("x"));

        assertThat(fs.rename(path("one"), path("two"))).isFalse();
        assertThat(fs.rename(path("missing"), path("three"))).isFalse();
        assertThat(fs.rename(path("dir"), path("dir/inside"))).isFalse();
        assertThat(client.keys(BUCKET)).containsExactly("dir/x", "one", "two");
    }

    @Test
    void pathsWithoutSchemeOrBucketUseTheFileSystemsBucket() throws IOException {
        client.store(location("rel/file"), bytes("x"));

        assertThat(fs.getFileStatus(new Path("/rel/file")).getPath()).isEqualTo(path("rel/file"));
        assertThat(fs.getUri().toString()).isEqualTo("s3://bucket/");
        assertThat(fs.getWorkingDirectory()).isEqualTo(new Path("s3://bucket/"));
        assertThat(fs.getHomeDirectory().toUri().getScheme()).isEqualTo("s3");
        assertThat(fs.isDistributedFS()).isTrue();
        assertThat(List.of(fs.getFileBlockLocations(fs.getFileStatus(path("rel/file")), 0, 1)))
                .singleElement()
                .satisfies(block -> assertThat(block.getLength()).isEqualTo(1));
    }
}
