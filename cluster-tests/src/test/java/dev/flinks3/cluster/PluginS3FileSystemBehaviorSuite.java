package dev.flinks3.cluster;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemBehaviorTestSuite;
import org.apache.flink.core.fs.FileSystemKind;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.BeforeAll;

/**
 * Flink's {@link FileSystemBehaviorTestSuite}, unmodified, on {@code s3://} served by the plugin jar
 * from {@code plugins/}, in a child JVM of {@link FlinkVersionMatrixTest} with one Flink version's jars
 * (its name does not end in {@code Test}: surefire does not run it in the build's JVM).
 */
public class PluginS3FileSystemBehaviorSuite extends FileSystemBehaviorTestSuite {

    @BeforeAll
    static void initializeFlinkFileSystems() {
        PluginFileSystems.initialize();
    }

    /** {@code s3} or {@code s3a}. */
    protected String scheme() {
        return "s3";
    }

    @Override
    protected FileSystem getFileSystem() throws Exception {
        return getBasePath().getFileSystem();
    }

    @Override
    protected Path getBasePath() {
        return new Path(scheme() + "://" + PluginFileSystems.bucket() + "/" + PluginFileSystems.prefix() + "/behavior-"
                + scheme());
    }

    @Override
    protected FileSystemKind getFileSystemKind() {
        return FileSystemKind.OBJECT_STORE;
    }
}
