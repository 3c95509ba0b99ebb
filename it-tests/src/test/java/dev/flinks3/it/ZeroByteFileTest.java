package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;

/** Zero-byte files are files, not directories, for every namespace call (issue 2, write path). */
class ZeroByteFileTest extends AbstractS3ProxyFileSystemTest {

    @Test
    void emptyFileIsAFileOfLengthZeroEverywhere() throws Exception {
        Path path = new Path(dir, "_SUCCESS");

        write(path, new byte[0]);

        assertThat(fs.exists(path)).isTrue();
        FileStatus status = fs.getFileStatus(path);
        assertThat(status.getLen()).isZero();
        assertThat(status.isDir()).isFalse();
        try (FSDataInputStream in = fs.open(path)) {
            assertThat(in.read()).isEqualTo(-1);
            assertThat(in.read(new byte[10], 0, 10)).isEqualTo(-1);
        }
        FileStatus[] listing = fs.listStatus(dir);
        assertThat(listing).hasSize(1);
        assertThat(listing[0].getPath().getName()).isEqualTo("_SUCCESS");
        assertThat(listing[0].getLen()).isZero();
        assertThat(listing[0].isDir()).isFalse();
        assertThat(s3.headObject(b -> b.bucket(target.bucket()).key(key(path))).contentLength())
                .isZero();
    }
}
