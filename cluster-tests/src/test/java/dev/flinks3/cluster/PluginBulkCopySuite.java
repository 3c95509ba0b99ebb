package dev.flinks3.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.ICloseableRegistry;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.PathsCopyingFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On Flink 2.x (which has {@link PathsCopyingFileSystem}; {@link FlinkVersionMatrixTest} selects this
 * suite only there), the plugin's filesystem, behind Flink's plugin wrapper, still offers the bulk copy
 * that RocksDB and ForSt restores use, and it copies the bytes.
 */
public class PluginBulkCopySuite {

    @TempDir
    java.nio.file.Path local;

    @BeforeAll
    static void initializeFlinkFileSystems() {
        PluginFileSystems.initialize();
    }

    @Test
    void bulkCopyIsOfferedThroughThePluginWrapper() throws Exception {
        Path source = new Path(
                "s3://" + PluginFileSystems.bucket() + "/" + PluginFileSystems.prefix() + "/bulk-copy/state-file");
        byte[] data = "restored state".getBytes(StandardCharsets.UTF_8);
        FileSystem fs = source.getFileSystem();
        try (OutputStream out = fs.create(source, WriteMode.NO_OVERWRITE)) {
            out.write(data);
        }
        Path destination = new Path(local.resolve("state-file").toUri());

        assertThat(fs).isInstanceOf(PathsCopyingFileSystem.class);
        PathsCopyingFileSystem copying = (PathsCopyingFileSystem) fs;
        assertThat(copying.canCopyPaths(source, destination)).isTrue();
        copying.copyFiles(
                List.of(PathsCopyingFileSystem.CopyRequest.of(source, destination, data.length)),
                ICloseableRegistry.NO_OP);

        assertThat(Files.readAllBytes(local.resolve("state-file"))).isEqualTo(data);
        fs.delete(source, false);
    }
}
