package dev.flinks3.it;

import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemBehaviorTestSuite;
import org.apache.flink.core.fs.FileSystemKind;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Flink's filesystem contract ({@link FileSystemBehaviorTestSuite}) for our {@code s3://} and
 * {@code s3a://} filesystem against one server. Subclasses name the server and the scheme; nothing
 * of the suite is overridden. The filesystem is obtained the way Flink code obtains it, through
 * {@link FileSystem#initialize} and {@link Path#getFileSystem()}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractS3FileSystemBehaviorTest extends FileSystemBehaviorTestSuite {

    private final String runPrefix = "behavior-" + UUID.randomUUID();

    /** The server and bucket to test against; may skip the test class with an assumption. */
    protected abstract S3TestTarget target();

    /** {@code s3} or {@code s3a}. */
    protected abstract String scheme();

    @BeforeAll
    void initializeFlinkFileSystems() throws Exception {
        FileSystem.initialize(flinkConfiguration(), null);
    }

    /** The configuration the filesystems are initialized with: the target's. */
    protected Configuration flinkConfiguration() {
        return target().flinkConfiguration();
    }

    @Override
    protected FileSystem getFileSystem() throws Exception {
        return getBasePath().getFileSystem();
    }

    @Override
    protected Path getBasePath() {
        return new Path(scheme() + "://" + target().bucket() + "/" + runPrefix);
    }

    @Override
    protected FileSystemKind getFileSystemKind() {
        return FileSystemKind.OBJECT_STORE;
    }
}
