package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Directories written by other tools: an empty {@code dir/} marker object (S3A, the S3 console) and a
 * prefix that only exists because keys below it do. Both are directories for {@code getFileStatus},
 * {@code exists} and the parent's {@code listStatus}; the marker itself is never listed as a file
 * (issue 2, namespace).
 */
class DirectoryMarkersTest extends AbstractS3ProxyFileSystemTest {

    @Test
    void markerObjectIsAnEmptyDirectory() throws Exception {
        Path marked = new Path(dir, "marked");
        s3.putObject(b -> b.bucket(target.bucket()).key(key(marked) + "/"), RequestBody.empty());

        assertThat(fs.exists(marked)).isTrue();
        assertThat(fs.getFileStatus(marked).isDir()).isTrue();
        assertThat(fs.listStatus(marked)).isEmpty();
        assertThat(names(fs.listStatus(dir))).containsExactly("marked");
        assertThat(fs.listStatus(dir)[0].isDir()).isTrue();
    }

    @Test
    void prefixWithChildrenIsADirectory() throws Exception {
        Path implicit = new Path(dir, "implicit");
        s3.putObject(b -> b.bucket(target.bucket()).key(key(implicit) + "/a/b/file"), RequestBody.fromString("x"));

        assertThat(fs.getFileStatus(implicit).isDir()).isTrue();
        assertThat(fs.getFileStatus(new Path(implicit, "a")).isDir()).isTrue();
        FileStatus[] listing = fs.listStatus(implicit);
        assertThat(names(listing)).containsExactly("a");
        assertThat(listing[0].isDir()).isTrue();
    }

    @Test
    void markerBesideChildrenIsListedOnce() throws Exception {
        Path both = new Path(dir, "both");
        s3.putObject(b -> b.bucket(target.bucket()).key(key(both) + "/"), RequestBody.empty());
        s3.putObject(b -> b.bucket(target.bucket()).key(key(both) + "/file"), RequestBody.fromString("x"));

        assertThat(names(fs.listStatus(both))).containsExactly("file");
        assertThat(names(fs.listStatus(dir))).containsExactly("both");
    }

    private static String[] names(FileStatus[] statuses) {
        return Arrays.stream(statuses).map(s -> s.getPath().getName()).toArray(String[]::new);
    }
}
